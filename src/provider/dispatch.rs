//! The one place a [`Style`] picks its provider. Everything that differs by style goes through
//! the [`Adapter`] returned here, so a new provider is one folder and one arm below.

use super::adapter::Adapter;
use super::{anthropic::Anthropic, gemini::Gemini, openai::OpenAi, responses::Responses};
use crate::style::Style;

pub(crate) fn adapter(style: Style) -> &'static dyn Adapter {
    match style {
        Style::OpenAi => &OpenAi,
        Style::Anthropic => &Anthropic,
        Style::Gemini => &Gemini,
        Style::Responses => &Responses,
    }
}
