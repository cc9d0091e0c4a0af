//! Gemini's finish reasons. The one list of reasons that mean the answer was withheld: the
//! reply parser turns such an empty candidate into `provider_error`, and `translate` reports
//! them as OpenAI's `content_filter`.

/// Finish reasons that mean the model's answer was withheld.
pub(crate) fn withheld(reason: &str) -> bool {
    matches!(reason, "SAFETY" | "RECITATION" | "BLOCKLIST" | "PROHIBITED_CONTENT" | "SPII" | "IMAGE_SAFETY")
}

/// A Gemini finish reason as OpenAI's `finish_reason`, for the reasons that are not a plain
/// stop: `MAX_TOKENS` is `length`, a withheld answer `content_filter`; anything else `None`.
pub fn gemini_finish_reason(reason: &str) -> Option<&'static str> {
    match reason {
        "MAX_TOKENS" => Some("length"),
        r if withheld(r) => Some("content_filter"),
        _ => None,
    }
}
