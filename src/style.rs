//! Which wire format a client speaks. A leaf: the provider adapters, the dialect readers, the
//! saved state and the edge all name a style, so it depends on nothing of theirs.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Style {
    #[serde(rename = "openai")]
    OpenAi,
    #[serde(rename = "anthropic")]
    Anthropic,
    #[serde(rename = "gemini")]
    Gemini,
    /// OpenAI's Responses API (`POST /responses`), stateless: the transcript travels as `input`
    /// items every call.
    #[serde(rename = "responses")]
    Responses,
}

impl Style {
    pub fn parse(s: &str) -> Result<Style> {
        match s {
            "openai" => Ok(Style::OpenAi),
            "anthropic" => Ok(Style::Anthropic),
            "gemini" => Ok(Style::Gemini),
            "responses" => Ok(Style::Responses),
            other => {
                Err(Error::bad_input(format!("style must be \"openai\", \"anthropic\", \"gemini\" or \"responses\", got \"{other}\"")))
            }
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Style::OpenAi => "openai",
            Style::Anthropic => "anthropic",
            Style::Gemini => "gemini",
            Style::Responses => "responses",
        }
    }
}
