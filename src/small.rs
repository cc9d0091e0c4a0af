//! std operations in the one form the default entry links. The rule: code the default entry
//! compiles searches, sorts, joins, borrows, inserts and drops map keys through these, not
//! through std's own, and a new workaround is added here, measured, never at its call site.
//! Some std operations link a large routine the first time they are used (a `&str` pattern
//! core's Two-Way searcher, a sort its quicksort, `[&str]::join` its generic joiner,
//! `Map::remove` index-map removal), and each call site of a `#[track_caller]` function
//! (`RefCell::borrow`, `Vec::insert`) its own panic location. With std at every site that calls
//! these: +8.8 KB gzip, measured (per operation: docs/decisions/small-std.md). Everything else
//! in the crate is plain std.

use crate::prelude::*;
use core::cell::{Ref, RefCell, RefMut};
use core::cmp::Ordering;
use serde_json::{Map, Value};

/// `hay.find(needle)`: the byte offset of the first match.
pub(crate) fn find(hay: &str, needle: &str) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    hay.as_bytes().windows(needle.len()).position(|w| w == needle.as_bytes())
}

/// `hay.rfind(needle)`: the byte offset of the last match.
pub(crate) fn rfind(hay: &str, needle: &str) -> Option<usize> {
    if needle.is_empty() {
        return Some(hay.len());
    }
    hay.as_bytes().windows(needle.len()).rposition(|w| w == needle.as_bytes())
}

/// `hay.contains(needle)`.
pub(crate) fn contains(hay: &str, needle: &str) -> bool {
    find(hay, needle).is_some()
}

/// `hay.to_ascii_lowercase().contains(&needle.to_ascii_lowercase())`, without the copies.
pub(crate) fn contains_ignore_ascii_case(hay: &str, needle: &str) -> bool {
    needle.is_empty() || hay.as_bytes().windows(needle.len()).any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// `s.split_once(sep)`. A match of a whole `&str` in valid UTF-8 starts and ends on character
/// boundaries, so the `get`s below always succeed.
pub(crate) fn split_once<'s>(s: &'s str, sep: &str) -> Option<(&'s str, &'s str)> {
    let at = find(s, sep)?;
    Some((s.get(..at)?, s.get(at + sep.len()..)?))
}

/// `s.rsplit_once(sep)`.
pub(crate) fn rsplit_once<'s>(s: &'s str, sep: &str) -> Option<(&'s str, &'s str)> {
    let at = rfind(s, sep)?;
    Some((s.get(..at)?, s.get(at + sep.len()..)?))
}

/// `text.replace(from, to)` for a non-empty `from` (matches left to right, not overlapping).
pub(crate) fn replace_all(text: &str, from: &str, to: &str) -> String {
    if from.is_empty() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some((before, after)) = split_once(rest, from) {
        out.push_str(before);
        out.push_str(to);
        rest = after;
    }
    out.push_str(rest);
    out
}

/// `parts.join(sep)`.
pub(crate) fn join(parts: &[&str], sep: &str) -> String {
    let mut len = 0;
    for p in parts {
        len += p.len() + sep.len();
    }
    let mut out = String::with_capacity(len);
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(p);
    }
    out
}

/// `v.sort_by(cmp)`: stable, by insertion (the lists sorted here are short).
pub(crate) fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    for i in 1..v.len() {
        let mut j = i;
        while let Some([a, b]) = j.checked_sub(1).and_then(|k| v.get_mut(k..=j)) {
            if cmp(a, b) != Ordering::Greater {
                break;
            }
            core::mem::swap(a, b);
            j -= 1;
        }
    }
}

/// `map` without `key`, the other entries in their order (as `shift_remove` leaves them).
pub(crate) fn without_key(map: &Map<String, Value>, key: &str) -> Map<String, Value> {
    let mut out = Map::new();
    for (k, v) in map.iter().filter(|(k, _)| k.as_str() != key) {
        out.insert(k.clone(), v.clone());
    }
    out
}

/// `vec![None; n]`, without a `Clone` of the element type.
pub(crate) fn nones<T>(n: usize) -> Vec<Option<T>> {
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        v.push(None);
    }
    v
}

/// `cell.borrow()`.
pub(crate) fn borrow<T>(cell: &RefCell<T>) -> Ref<'_, T> {
    cell.borrow()
}

/// `cell.borrow_mut()`.
pub(crate) fn borrow_mut<T>(cell: &RefCell<T>) -> RefMut<'_, T> {
    cell.borrow_mut()
}

/// `v.insert(at, x)`: `at` is at most `v.len()`.
pub(crate) fn insert<T>(v: &mut Vec<T>, at: usize, x: T) {
    v.insert(at, x);
}

/// `n.fract() == 0.0` (core has no `fract`): a whole number; an infinity or NaN is not.
pub(crate) fn whole(n: f64) -> bool {
    n % 1.0 == 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searches_as_std_does() {
        for (hay, needle) in [("abcabc", "bc"), ("abc", ""), ("", "a"), ("aaa", "aa"), ("héllo wörld", "ö"), ("x", "xy")] {
            assert_eq!(find(hay, needle), hay.find(needle), "{hay:?} {needle:?}");
            assert_eq!(rfind(hay, needle), hay.rfind(needle), "{hay:?} {needle:?}");
            assert_eq!(contains(hay, needle), hay.contains(needle));
            assert_eq!(split_once(hay, needle), if needle.is_empty() { Some(("", hay)) } else { hay.split_once(needle) });
            assert_eq!(rsplit_once(hay, needle), if needle.is_empty() { Some((hay, "")) } else { hay.rsplit_once(needle) });
            if !needle.is_empty() {
                assert_eq!(replace_all(hay, needle, "[r]"), hay.replace(needle, "[r]"));
            }
        }
        assert!(contains_ignore_ascii_case("models/Gemini-3-pro", "gemini-3"));
        assert!(!contains_ignore_ascii_case("gemini-2.5", "gemini-3"));
        assert_eq!(replace_all("abc", "", "x"), "abc");
        for parts in [&[][..], &["a"], &["a", "", "b"]] {
            assert_eq!(join(parts, ", "), parts.join(", "));
        }
    }

    #[test]
    fn sorts_stably_as_std_does() {
        let mut v = vec![(3, 'a'), (1, 'b'), (2, 'c'), (1, 'd'), (3, 'e'), (0, 'f')];
        let mut w = v.clone();
        sort_by(&mut v, |a, b| a.0.cmp(&b.0));
        w.sort_by_key(|a| a.0);
        assert_eq!(v, w);
        let mut e: Vec<u8> = Vec::new();
        sort_by(&mut e, u8::cmp);
        assert!(e.is_empty());
    }

    #[test]
    fn whole_numbers() {
        assert!(whole(3.0) && whole(-0.0) && !whole(0.5) && !whole(f64::NAN) && !whole(f64::INFINITY));
    }
}
