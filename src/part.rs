//! The parts of a multimodal message: text and images, in order. A user prompt, a history
//! message, a tool result and a relay answer may all carry them. Every image in the transcript
//! has been checked when it was read, so each provider can render it: a rendering never fails
//! and never drops one. The neutral shape is `{ type: "text", text }` or
//! `{ type: "image", data?: <base64>, url?: <string>, mediaType?: <string> }`; the reader also
//! takes each provider's own part (OpenAI `image_url`, Anthropic `image` with a `source`, Gemini
//! `inlineData` / `fileData`), so a history in any dialect reads back.

use crate::json::str_at;
use crate::prelude::*;
use serde_json::{Map, Value};

/// How one dialect spells a part. Each provider folder holds its own (`PARTS` in its dialect);
/// this file knows only the neutral shape, and [`Part::value`] is the one builder of them all.
pub struct Spelling {
    /// The `type` of a text part (`{"type":…,"text":…}`); "" for none (Gemini's `{"text":…}`).
    pub text_type: &'static str,
    pub image: ImageSpelling,
}

pub enum ImageSpelling {
    /// The image as one URL (a data URL for bytes), under these keys.
    Url(ImageKeys),
    /// Bytes (base64 and their media type) under the first keys, a URL under the second.
    Keyed([ImageKeys; 2]),
}

/// Where an image's fields go: `{"type": ty, wrap: {"type": wrap_type, media: …, source: …}}`,
/// each of `ty`, `wrap`, `wrap_type` and `media` left out when "" (without `wrap`, the fields
/// sit beside `type`), and an empty media type left out too.
pub struct ImageKeys {
    pub ty: &'static str,
    pub wrap: &'static str,
    pub wrap_type: &'static str,
    pub media: &'static str,
    pub source: &'static str,
}

impl ImageKeys {
    pub const fn new(ty: &'static str, wrap: &'static str, media: &'static str, source: &'static str) -> ImageKeys {
        ImageKeys { ty, wrap, wrap_type: "", media, source }
    }
}

/// `{ type: "text", text }`, `{ type: "image", mediaType?, data | url }`.
pub const NEUTRAL: Spelling = Spelling {
    text_type: "text",
    image: ImageSpelling::Keyed([ImageKeys::new("image", "", "mediaType", "data"), ImageKeys::new("image", "", "mediaType", "url")]),
};

#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    Text(String),
    Image(Image),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    /// Base64 bytes when `inline`, else a URL the provider fetches.
    pub source: String,
    pub inline: bool,
    /// Always set when `inline` (given or recognised from the bytes); may be empty for a URL.
    pub media_type: String,
}

/// The image types all three providers take inline; anything else would be refused by one of
/// them, so it is refused when read instead of when a request is already on the wire.
const MEDIA_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

impl Image {
    /// An image from `data` (base64) or `url` (a `data:` URL is taken apart into both), checked.
    pub fn new(data: Option<&str>, url: Option<&str>, media_type: Option<&str>) -> Result<Image, String> {
        let mut media_type = media_type.unwrap_or_default().to_string();
        let (source, inline) = match (data.filter(|d| !d.is_empty()), url.filter(|u| !u.is_empty())) {
            (Some(d), _) => (d, true),
            (None, Some(u)) => match data_url(u) {
                Some((mt, d)) => {
                    if media_type.is_empty() {
                        media_type = mt.to_string();
                    }
                    (d, true)
                }
                None => (u, false),
            },
            (None, None) => return Err("an image part needs data (base64) or a url".into()),
        };
        if inline && media_type.is_empty() {
            media_type = sniff(source).to_string();
        }
        if (inline || !media_type.is_empty()) && !MEDIA_TYPES.contains(&media_type.as_str()) {
            let shown = if media_type.is_empty() { "unknown" } else { &media_type };
            return Err(format!("image mediaType {shown} is not one every provider accepts ({})", crate::small::join(&MEDIA_TYPES, ", ")));
        }
        Ok(Image { source: source.to_string(), inline, media_type })
    }

    /// `data:<type>;base64,<bytes>` for an inline image, else the URL.
    pub fn url(&self) -> String {
        if self.inline {
            format!("data:{};base64,{}", self.media_type, self.source)
        } else {
            self.source.clone()
        }
    }
}

/// `data:<type>;base64,<bytes>` taken apart.
fn data_url(u: &str) -> Option<(&str, &str)> {
    crate::small::split_once(u.strip_prefix("data:")?, ";base64,")
}

/// The media type from the first bytes of base64 data ("" when not one of the known four).
fn sniff(b64: &str) -> &'static str {
    const SIGS: [(&str, &str); 4] =
        [("iVBORw0KGgo", "image/png"), ("/9j/", "image/jpeg"), ("R0lGOD", "image/gif"), ("UklGR", "image/webp")];
    SIGS.iter().find(|(sig, _)| b64.starts_with(sig)).map_or("", |(_, t)| t)
}

// Each provider's image part, read here beside the one writer of every dialect's parts (below),
// so that this neutral module imports no provider: the readers of whole messages (in each
// provider's folder) call `Part::read`, never the other way round.

/// An `image_url` part: `{ image_url: { url } }` (or the URL as a string); `detail` is not kept.
fn openai_image(v: &Value) -> Result<Image, String> {
    let u = v.get("image_url").unwrap_or(&Value::Null);
    Image::new(None, str_at(u, "url").or(u.as_str()), None)
}

/// An image block's `source`.
fn anthropic_image(src: &Value) -> Result<Image, String> {
    match str_at(src, "type") {
        Some("url") => Image::new(None, str_at(src, "url"), None),
        _ => Image::new(str_at(src, "data"), None, str_at(src, "media_type")),
    }
}

/// An `inlineData` or `fileData` part.
fn gemini_image(p: &Value) -> Result<Image, String> {
    match (p.get("inlineData"), p.get("fileData")) {
        (Some(d), _) => Image::new(str_at(d, "data"), None, str_at(d, "mimeType")),
        (None, f) => {
            let f = f.unwrap_or(&Value::Null);
            Image::new(None, str_at(f, "fileUri"), str_at(f, "mimeType"))
        }
    }
}

impl Part {
    /// Reads one part in the neutral shape or any provider's; a part that is neither text nor
    /// an image (audio, documents, files) is an error, never skipped.
    pub fn read(v: &Value) -> Result<Part, String> {
        let ty = str_at(v, "type");
        if let (None | Some("text" | "input_text" | "output_text"), Some(t)) = (ty, str_at(v, "text")) {
            return Ok(Part::Text(t.to_string()));
        }
        let image = match ty {
            Some("image") => match v.get("source") {
                Some(src) => anthropic_image(src),
                None => Image::new(str_at(v, "data"), str_at(v, "url"), str_at(v, "mediaType")),
            },
            Some("image_url") => openai_image(v),
            // Responses: `image_url` is the URL itself (a data URL for bytes).
            Some("input_image") => Image::new(None, str_at(v, "image_url"), None),
            None if v.get("inlineData").is_some() || v.get("fileData").is_some() => gemini_image(v),
            t => return Err(format!("a part of type {} is not supported (text and image parts are)", t.unwrap_or("(none)"))),
        };
        image.map(Part::Image)
    }

    /// The neutral shape.
    pub fn to_value(&self) -> Value {
        self.value(&NEUTRAL)
    }

    /// This part as `spelling` spells it.
    pub fn value(&self, spelling: &Spelling) -> Value {
        let i = match self {
            Part::Text(t) => {
                let mut o = Map::new();
                if !spelling.text_type.is_empty() {
                    o.insert("type".into(), spelling.text_type.into());
                }
                o.insert("text".into(), t.as_str().into());
                return Value::Object(o);
            }
            Part::Image(i) => i,
        };
        let (keys, source) = match &spelling.image {
            ImageSpelling::Url(keys) => (keys, i.url()),
            ImageSpelling::Keyed([bytes, _]) if i.inline => (bytes, i.source.clone()),
            ImageSpelling::Keyed([_, url]) => (url, i.source.clone()),
        };
        let mut fields = Map::new();
        for (key, value) in [("type", keys.wrap_type), (keys.media, i.media_type.as_str())] {
            if !key.is_empty() && !value.is_empty() {
                fields.insert(key.into(), value.into());
            }
        }
        fields.insert(keys.source.into(), source.into());
        let mut o = Map::new();
        if !keys.ty.is_empty() {
            o.insert("type".into(), keys.ty.into());
        }
        if keys.wrap.is_empty() {
            o.extend(fields);
        } else {
            o.insert(keys.wrap.into(), Value::Object(fields));
        }
        Value::Object(o)
    }

    pub fn text(&self) -> &str {
        match self {
            Part::Text(t) => t,
            Part::Image(_) => "",
        }
    }
}

// Through the neutral shape, for the serde derives of the types that hold parts.
impl serde::Serialize for Part {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_value().serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for Part {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Part, D::Error> {
        Part::read(&Value::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// A list of parts (`what` names it in errors).
pub fn read_parts(v: &Value, what: &str) -> Result<Vec<Part>, String> {
    let Value::Array(a) = v else { return Err(format!("{what} must be an array of parts")) };
    let mut out = Vec::with_capacity(a.len());
    for p in a {
        match Part::read(p) {
            Ok(p) => out.push(p),
            Err(e) => {
                return Err(format!("{what}[{}]: {e}", out.len()));
            }
        }
    }
    Ok(out)
}

/// Parts as values in `style`'s spelling (`None`: the neutral shape).
pub fn parts_value(parts: &[Part], spelling: &Spelling) -> Value {
    let mut out = Vec::with_capacity(parts.len());
    for p in parts {
        out.push(p.value(spelling));
    }
    Value::Array(out)
}

/// The text parts joined.
pub fn text_of(parts: &[Part]) -> String {
    let mut out = String::new();
    for p in parts {
        out.push_str(p.text());
    }
    out
}

pub fn has_image(parts: &[Part]) -> bool {
    parts.iter().any(|p| matches!(p, Part::Image(_)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_dialect_reads_to_the_same_image() {
        let png = Image { source: "iVBORw0KGgoAAA".into(), inline: true, media_type: "image/png".into() };
        for v in [
            json!({"type": "image", "data": "iVBORw0KGgoAAA"}),
            json!({"type": "image", "url": "data:image/png;base64,iVBORw0KGgoAAA"}),
            json!({"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgoAAA"}}),
            json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgoAAA"}}),
            json!({"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgoAAA"}}),
        ] {
            assert_eq!(Part::read(&v), Ok(Part::Image(png.clone())), "{v}");
        }
        let url = Image { source: "https://x/a.jpg".into(), inline: false, media_type: String::new() };
        for v in [
            json!({"type": "image", "url": "https://x/a.jpg"}),
            json!({"type": "image_url", "image_url": "https://x/a.jpg"}),
            json!({"type": "image", "source": {"type": "url", "url": "https://x/a.jpg"}}),
            json!({"fileData": {"fileUri": "https://x/a.jpg"}}),
        ] {
            assert_eq!(Part::read(&v), Ok(Part::Image(url.clone())), "{v}");
        }
        assert_eq!(Part::read(&json!({"text": "hi"})), Ok(Part::Text("hi".into())));
        assert_eq!(Part::read(&json!({"type": "output_text", "text": "hi"})), Ok(Part::Text("hi".into())));
        assert_eq!(
            Part::read(&json!({"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgoAAA"})),
            Ok(Part::Image(png.clone()))
        );
    }

    #[test]
    fn each_style_writes_its_own_part_and_reads_it_back() {
        let png = Part::Image(Image::new(Some("iVBORw0KGgo"), None, None).unwrap());
        let url = Part::Image(Image::new(None, Some("https://x/a.jpg"), None).unwrap());
        let typed = Part::Image(Image::new(None, Some("https://x/b.gif"), Some("image/gif")).unwrap());
        let text = Part::Text("t\"".into());
        let cases = [
            (
                &NEUTRAL,
                [
                    json!({"type": "image", "mediaType": "image/png", "data": "iVBORw0KGgo"}),
                    json!({"type": "image", "url": "https://x/a.jpg"}),
                    json!({"type": "image", "mediaType": "image/gif", "url": "https://x/b.gif"}),
                    json!({"type": "text", "text": "t\""}),
                ],
            ),
            (
                &crate::provider::openai::dialect::PARTS,
                [
                    json!({"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo"}}),
                    json!({"type": "image_url", "image_url": {"url": "https://x/a.jpg"}}),
                    json!({"type": "image_url", "image_url": {"url": "https://x/b.gif"}}),
                    json!({"type": "text", "text": "t\""}),
                ],
            ),
            (
                &crate::provider::anthropic::dialect::PARTS,
                [
                    json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo"}}),
                    json!({"type": "image", "source": {"type": "url", "url": "https://x/a.jpg"}}),
                    json!({"type": "image", "source": {"type": "url", "url": "https://x/b.gif"}}),
                    json!({"type": "text", "text": "t\""}),
                ],
            ),
            (
                &crate::provider::gemini::dialect::PARTS,
                [
                    json!({"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo"}}),
                    json!({"fileData": {"fileUri": "https://x/a.jpg"}}),
                    json!({"fileData": {"mimeType": "image/gif", "fileUri": "https://x/b.gif"}}),
                    json!({"text": "t\""}),
                ],
            ),
            (
                &crate::provider::responses::dialect::PARTS,
                [
                    json!({"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo"}),
                    json!({"type": "input_image", "image_url": "https://x/a.jpg"}),
                    json!({"type": "input_image", "image_url": "https://x/b.gif"}),
                    json!({"type": "input_text", "text": "t\""}),
                ],
            ),
        ];
        for (n, (spelling, want)) in cases.into_iter().enumerate() {
            for (p, w) in [&png, &url, &typed, &text].into_iter().zip(want) {
                assert_eq!(p.value(spelling), w, "{n}");
                // OpenAI, Anthropic and Responses URLs carry no media type: the rest read back whole.
                let lossy = matches!(n, 1 | 2 | 4) && p == &typed;
                if !lossy {
                    assert_eq!(&Part::read(&w).unwrap(), p, "{n} {w}");
                }
            }
        }
    }

    #[test]
    fn an_image_no_provider_can_carry_is_refused() {
        let e = Part::read(&json!({"type": "image", "data": "AAAA"})).unwrap_err();
        assert!(e.contains("mediaType unknown"), "{e}");
        let e = Part::read(&json!({"type": "image", "data": "AAAA", "mediaType": "application/pdf"})).unwrap_err();
        assert!(e.contains("application/pdf"), "{e}");
        assert!(Part::read(&json!({"type": "image"})).unwrap_err().contains("needs data"));
        assert!(Part::read(&json!({"type": "input_audio", "input_audio": {}})).unwrap_err().contains("input_audio"));
        let e = read_parts(&json!(["x"]), "prompt").unwrap_err();
        assert_eq!(e, "prompt[0]: a part of type (none) is not supported (text and image parts are)");
    }

    #[test]
    fn the_neutral_shape_round_trips() {
        let parts = vec![Part::Text("look".into()), Part::Image(Image::new(Some("/9j/AA"), None, None).unwrap())];
        let v = parts_value(&parts, &NEUTRAL);
        assert_eq!(v, json!([{"type": "text", "text": "look"}, {"type": "image", "data": "/9j/AA", "mediaType": "image/jpeg"}]));
        assert_eq!(read_parts(&v, "p").unwrap(), parts);
    }
}
