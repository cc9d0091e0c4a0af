//! The operations the wasm serves by number, declared once. The wasm has three exports:
//! `createClient`, the client's `op(kind, a, b, stream)` and the stateless `op(kind, a, b, c)`;
//! pkg-template/api.js gives each kind its name (an export of its own per method would be glue
//! JS and a wasm shim each). The edge matches on these enums, and a native test
//! (`api_js_names_the_ops_in_this_order`) reads api.js and checks that its two lists name them
//! in this order, so a new op is one row here and one name there, and a mismatch fails the tests.

/// Declares a `#[repr(u8)]` enum whose variants are numbered in order, with the JS name of each.
macro_rules! ops {
    ($(#[$doc:meta])* $name:ident { $($variant:ident = $js:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u8)]
        pub enum $name { $($variant),+ }

        impl $name {
            /// Every op, in its number's order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// The JS name of each op, in its number's order (api.js must list the same).
            pub const NAMES: &'static [&'static str] = &[$($js),+];

            /// The op of a number the JS side passed; `None` for one that names no op.
            pub fn of(kind: u8) -> Option<$name> {
                Self::ALL.get(usize::from(kind)).copied()
            }
        }
    };
}

ops! {
    /// The methods and getters of `Client` (`CLIENT` in api.js). The six loop operations come
    /// first, in pairs: the prompt, then its resume, of `run`, `ask` and `stream`.
    ClientOp {
        Run = "run",
        RunWithAnswer = "runWithAnswer",
        Ask = "ask",
        AskWithAnswer = "askWithAnswer",
        Stream = "stream",
        StreamWithAnswer = "streamWithAnswer",
        Translate = "translate",
        TranslateStream = "translateStream",
        Discard = "discard",
        ConversationStore = "conversationStore",
        Metrics = "metrics",
        Style = "style",
        Model = "model",
        Free = "free",
    }
}

ops! {
    /// The functions of the API that hold no state (the destructured list in api.js).
    FnOp {
        Pending = "pending",
        AuthRequired = "authRequired",
        IsRelayRequest = "isRelayRequest",
        RelayCallsOf = "relayCallsOf",
        RelayAnswer = "answerOf",
        CheckRevision = "checkRevision",
        DeclareTool = "declareTool",
        RelayTool = "declareRelay",
        ToolkitId = "toolkitId",
        DropToolkit = "dropToolkit",
    }
}

ops! {
    /// The slots of the array `runOptions` (src/wasm/js/options.js) returns: what an operation's options
    /// hold besides JSON data (host.js `RunOptions`).
    RunSlot {
        Toolkit = "toolkit",
        Signal = "signal",
        OnText = "onText",
        Id = "id",
        KeepHistory = "keepHistory",
        History = "history",
        Keys = "keys",
    }
}

ops! {
    /// The first slot of `callTool`'s reply (src/wasm/js/tools.js `ToolReply`): how the tool
    /// ended, the second slot holding its text.
    ToolReply {
        Text = "TEXT",
        Json = "JSON_TEXT",
        Threw = "THREW",
        NotData = "NOT_DATA",
    }
}

/// `callModel`'s status slot when there is no HTTP status (src/wasm/js/fetch.js): fetch gave no
/// Response, or the body was longer than the cap. Below any HTTP status, so one number carries
/// both.
pub const STATUS_NO_RESPONSE: u16 = 0;
pub const STATUS_TOO_LARGE: u16 = 1;

impl RunSlot {
    pub fn at(self) -> u32 {
        self as u32
    }
}

impl ClientOp {
    /// A loop operation that starts from a prompt (`run`, `ask`, `stream`), not a resume.
    pub fn takes_prompt(self) -> bool {
        (self as u8) < (ClientOp::Translate as u8) && (self as u8) % 2 == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The comma-separated names after `marker` (which ends with `[`) up to the next `]`.
    fn names_after(src: &str, marker: &str) -> Vec<String> {
        let at = src.find(marker).unwrap_or_else(|| panic!("no {marker}"));
        let body = &src[at + marker.len()..];
        let body = &body[..body.find(']').unwrap()];
        body.split(',').map(|s| s.trim().trim_matches('"').to_string()).filter(|s| !s.is_empty()).collect()
    }

    #[test]
    fn api_js_names_the_ops_in_this_order() {
        let api = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/pkg-template/api.js")).unwrap();
        assert_eq!(names_after(&api, "const CLIENT = ["), ClientOp::NAMES);
        assert_eq!(names_after(&api, "\nconst ["), FnOp::NAMES, "the stateless functions of api.js");
        for (i, op) in ClientOp::ALL.iter().enumerate() {
            assert_eq!(*op as usize, i);
            assert_eq!(ClientOp::of(i as u8), Some(*op));
        }
        assert_eq!(ClientOp::of(ClientOp::ALL.len() as u8), None);
        assert_eq!(FnOp::of(FnOp::ALL.len() as u8), None);
        let prompts: Vec<_> = ClientOp::ALL.iter().filter(|o| o.takes_prompt()).collect();
        assert_eq!(prompts, [&ClientOp::Run, &ClientOp::Ask, &ClientOp::Stream]);
    }

    #[test]
    fn api_js_holds_the_one_relay_kind() {
        let api = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/pkg-template/api.js")).unwrap();
        let line = api.lines().find(|l| l.starts_with("export const RELAY_KIND =")).expect("api.js exports RELAY_KIND");
        assert_eq!(line, format!("export const RELAY_KIND = \"{}\";", crate::suspend::RELAY_KIND));
        for entry in ["index.js", "node.js", "workerd.js"] {
            let src = std::fs::read_to_string(format!("{}/pkg-template/{entry}", env!("CARGO_MANIFEST_DIR"))).unwrap();
            assert!(!src.contains("RELAY_KIND ="), "{entry} re-exports api.js's RELAY_KIND, never its own");
        }
    }

    /// The labels of the labelled tuple `@typedef {[a: A, b: B]} name` in an edge JS file.
    fn tuple_labels(src: &str, name: &str) -> Vec<String> {
        let end = src.find(&format!("]}} {name}")).unwrap_or_else(|| panic!("no typedef {name}"));
        let start = src[..end].rfind("@typedef {[").unwrap() + "@typedef {[".len();
        let body = src[start..end].replace("\n *", " ");
        // Labels sit at depth 0 of the tuple: `label: type` separated by commas.
        let (mut depth, mut labels, mut item) = (0i32, Vec::new(), String::new());
        for ch in body.chars().chain([',']) {
            match ch {
                '(' | '[' | '{' | '<' => depth += 1,
                ')' | ']' | '}' | '>' => depth -= 1,
                ',' if depth == 0 => {
                    labels.push(item.split(':').next().unwrap().trim().trim_end_matches('?').to_string());
                    item.clear();
                    continue;
                }
                _ => {}
            }
            item.push(ch);
        }
        labels
    }

    /// One of the edge's JS helpers (src/wasm/js/, bundled into the snippet host.js).
    fn edge_js(file: &str) -> String {
        std::fs::read_to_string(format!("{}/src/wasm/js/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    #[test]
    fn host_js_types_the_slots_in_this_order() {
        assert_eq!(tuple_labels(&edge_js("options.js"), "RunOptions"), RunSlot::NAMES);
        let tags: Vec<String> = ToolReply::ALL.iter().map(|t| format!("{} = {}", ToolReply::NAMES[*t as usize], *t as u8)).collect();
        assert!(edge_js("tools.js").contains(&format!("const {};", tags.join(", "))), "tools.js declares {tags:?}");
        let statuses = format!("const NO_RESPONSE = {STATUS_NO_RESPONSE}, TOO_LARGE = {STATUS_TOO_LARGE};");
        assert!(edge_js("fetch.js").contains(&statuses), "fetch.js declares {statuses}");
    }
}
