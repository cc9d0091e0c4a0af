//! An empty model turn (an empty reply, or a turn whose only content was reasoning another model
//! made, dropped for this one) is never sent in a form the provider refuses — Anthropic refuses
//! an assistant message without content, Gemini a model content whose only part is `{ text: "" }`
//! — and the saved state keeps it, so it reads back to the same transcript.

mod common;
use common::*;
use serde_json::{json, Value};
use toolnexus_wasm::dialect;
use toolnexus_wasm::message::{AssistantTurn, Message, Reasoning};
use toolnexus_wasm::provider::{build_request, ModelRequest, Style, ToolChoice};

fn transcript(provider: &str, item: Value) -> Vec<Message> {
    let foreign = Reasoning { provider: provider.into(), model: "another-model".into(), items: vec![(0, item)], text_signature: None };
    vec![
        Message::User("hi".into()),
        Message::Assistant(AssistantTurn::default()),
        Message::User("still there?".into()),
        Message::Assistant(AssistantTurn { reasoning: Some(foreign), ..AssistantTurn::default() }),
        Message::User("and now?".into()),
    ]
}

fn request(style: Style, messages: &[Message]) -> Value {
    let cfg = config(style).provider;
    let req = ModelRequest { system: "", messages, tools: &[], stream: false, tool_choice: ToolChoice::Omit, max_tokens: None };
    serde_json::from_str(&build_request(&cfg, &req).body).unwrap()
}

#[test]
fn anthropic_leaves_empty_assistant_turns_out_of_requests() {
    let messages = transcript("anthropic", json!({"type": "thinking", "thinking": "t", "signature": "c2ln"}));
    assert_eq!(
        request(Style::Anthropic, &messages)["messages"],
        json!([{"role": "user", "content": "hi"}, {"role": "user", "content": "still there?"}, {"role": "user", "content": "and now?"}]),
        "no assistant message without content (the API joins the user turns)"
    );
    let state = dialect::render(&messages, Style::Anthropic);
    assert_eq!(state[1], json!({"role": "assistant", "content": []}));
    assert_eq!(dialect::read(&state).unwrap(), messages, "the state keeps both turns");
}

#[test]
fn gemini_never_sends_an_empty_text_part() {
    let messages = transcript("gemini", json!({"text": "t", "thought": true, "thoughtSignature": "c2ln"}));
    let body = request(Style::Gemini, &messages);
    assert_eq!(
        body["contents"],
        json!([{"role": "user", "parts": [{"text": "hi"}]}, {"role": "user", "parts": [{"text": "still there?"}]}, {"role": "user", "parts": [{"text": "and now?"}]}])
    );
    let state = dialect::render(&messages, Style::Gemini);
    assert_eq!(dialect::read(&state).unwrap(), messages);
}

#[test]
fn responses_leaves_empty_turns_out_and_the_state_keeps_them() {
    let messages = transcript("openai", json!({"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "c2ln"}));
    let input = request(Style::Responses, &messages)["input"].clone();
    assert!(input.as_array().unwrap().iter().all(|i| i["role"] == "user"), "{input}");
    let state = dialect::render(&messages, Style::Responses);
    assert_eq!(dialect::read(&state).unwrap(), messages);
}
