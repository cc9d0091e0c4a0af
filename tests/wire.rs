//! Recorded provider traffic (`tests/fixtures/wire/`, see its SOURCES.md) replayed through the
//! package: every reply of `manifest.json` through the whole-reply parser or the stream
//! assembler in many chunkings (`replies`), every reply with tool calls through the loop, whole
//! and streamed, straight and halted on a relay tool then resumed from JSON text (`loops`), with
//! the follow-up request compared to what the real client sent on the members the provider
//! validates (`requests`), and every recording kept as a fuzz seed (`corpus`). `kinds` replays
//! the three behaviours of docs/decisions/wire-replies.md through the loop.
//!
//! Each test runs one wire style and reports every failing entry at once, so a style whose
//! provider folder lags shows all its gaps in one run. The `responses` style (OpenAI Responses
//! API) is named through `Style::parse("responses")`: where the style does not exist yet, its
//! tests fail saying so.

mod common;
#[path = "wire/corpus.rs"]
mod corpus;
#[path = "wire/kinds.rs"]
mod kinds;
#[path = "wire/loops.rs"]
mod loops;
#[path = "wire/manifest.rs"]
mod manifest;
#[path = "wire/replies.rs"]
mod replies;
#[path = "wire/requests.rs"]
mod requests;
