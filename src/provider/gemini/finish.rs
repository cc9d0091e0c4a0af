//! Gemini's finish reasons. The one list of reasons that mean the answer was withheld: the
//! reply parser turns such an empty candidate into `provider_error`, and `translate` reports
//! them as OpenAI's `content_filter`.

use crate::provider::call::Finish;

/// Finish reasons that mean the model's answer was withheld by a safety system.
pub(crate) fn withheld(reason: &str) -> bool {
    matches!(
        reason,
        "SAFETY"
            | "RECITATION"
            | "BLOCKLIST"
            | "PROHIBITED_CONTENT"
            | "SPII"
            | "IMAGE_SAFETY"
            | "IMAGE_PROHIBITED_CONTENT"
            | "IMAGE_RECITATION"
            | "MODEL_ARMOR"
    )
}

/// Whether a candidate that ended for `reason` with no content is an answer (an empty one) and
/// not a withheld reply: only a plain stop or the token limit. Any other reason, known or not,
/// with nothing in the candidate is the provider's error, never an empty success.
pub(crate) fn empty_is_answer(reason: &str) -> bool {
    matches!(reason, "STOP" | "MAX_TOKENS")
}

/// A finish reason normalised (see [`Finish`]).
pub(crate) fn finish(reason: Option<&str>, has_calls: bool) -> Finish {
    match reason {
        Some("MAX_TOKENS") => Finish::Length,
        Some(r) if withheld(r) => Finish::ContentFilter,
        _ if has_calls => Finish::ToolCalls,
        None | Some("STOP") => Finish::Stop,
        Some(_) => Finish::Other,
    }
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
