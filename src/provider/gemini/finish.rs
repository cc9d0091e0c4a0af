//! Gemini's finish reasons. The one list of reasons that mean the answer was withheld, the one
//! rule for when an empty candidate is an answer, and the one normalisation ([`finish`]) that
//! both the loop's `Finish` and `translate`'s OpenAI `finish_reason` come from.

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
/// not a withheld reply: only a plain stop or the token limit. Any other reason, known or not
/// (`MALFORMED_FUNCTION_CALL`, `OTHER`, one added next year), with neither text nor calls in the
/// candidate is the provider's error, never an empty success.
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
/// stop: what [`finish`] makes of it when it is `length` or `content_filter`; `None` otherwise
/// (OpenAI has no `other`, and `translate` also passes other providers' values through here).
pub fn gemini_finish_reason(reason: &str) -> Option<&'static str> {
    match finish(Some(reason), false) {
        f @ (Finish::Length | Finish::ContentFilter) => Some(f.as_str()),
        _ => None,
    }
}
