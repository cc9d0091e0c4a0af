//! Image parts: in prompts, histories of every dialect, tool results and relay answers, rendered
//! as each provider takes them (the recorded request bodies), kept across a durable halt, a new
//! process, the stores and a change of style, and refused by name when no provider could take
//! them.

mod common;
use common::*;
use serde_json::{json, Value};
use toolnexus_wasm::driver::drive;
use toolnexus_wasm::message::Message;
use toolnexus_wasm::provider::Style;
use toolnexus_wasm::run::{ResumeInput, Run, RunResult, Status};
use toolnexus_wasm::state::{self, ConversationState};
use toolnexus_wasm::suspend::{relay_answer, relay_results_from_json, Answer, Request};
use toolnexus_wasm::tool::{ToolResult, ToolSpec, Toolkit};
use toolnexus_wasm::{dialect, driver::Env};

const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAW9JTAQAAAABJRU5ErkJggg==";
const URL: &str = "https://example.com/cat.jpg";

fn prompt_parts() -> Value {
    json!([{"type": "text", "text": "what is this?"}, {"type": "image", "data": PNG}, {"type": "image", "url": URL}])
}

/// A run from a prompt given as parts (what `run(prompt)` decodes at the edge).
fn go(
    style: Style,
    kit: Vec<ToolSpec>,
    p: &Scripted,
    tools: &Tools,
    waiter: Option<&Wait>,
    history: Vec<Message>,
    prompt: &Value,
) -> RunResult {
    let (ids, clock) = (ids(), tick());
    let env = Env { waiter: waiter.map(|w| w as _), ..Env::new(p, tools, &ids, &clock) };
    let (r, step) = Run::start(config(style), Toolkit::new(kit).unwrap(), history, Message::prompt(prompt).unwrap()).unwrap();
    futures_executor::block_on(drive(r, step, &env)).unwrap()
}

fn resume_in_new_process(style: Style, kit: Vec<ToolSpec>, p: &Scripted, halted: &str, answer: impl Fn(&Request) -> Answer) -> RunResult {
    let h = state::load(&serde_json::from_str(halted).unwrap()).unwrap();
    let (ids, clock, tools) = (ids(), tick(), Tools::default());
    let env = Env::new(p, &tools, &ids, &clock);
    let input =
        ResumeInput { history: dialect::read(&h.messages).unwrap(), answer: answer(&h.pending), pending: h.pending, children: Vec::new() };
    let (r, step) = Run::resume(config(style), Toolkit::new(kit).unwrap(), input).unwrap();
    futures_executor::block_on(drive(r, step, &env)).unwrap()
}

/// The prompt's parts as each provider's request carries them.
fn prompt_wire(style: Style) -> Value {
    match style {
        Style::OpenAi => json!({"role": "user", "content": [
            {"type": "text", "text": "what is this?"},
            {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{PNG}")}},
            {"type": "image_url", "image_url": {"url": URL}}]}),
        Style::Anthropic => json!({"role": "user", "content": [
            {"type": "text", "text": "what is this?"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
            {"type": "image", "source": {"type": "url", "url": URL}}]}),
        Style::Gemini => json!({"role": "user", "parts": [
            {"text": "what is this?"},
            {"inlineData": {"mimeType": "image/png", "data": PNG}},
            {"fileData": {"fileUri": URL}}]}),
        Style::Responses => json!({"role": "user", "content": [
            {"type": "input_text", "text": "what is this?"},
            {"type": "input_image", "image_url": format!("data:image/png;base64,{PNG}")},
            {"type": "input_image", "image_url": URL}]}),
    }
}

fn last(v: &Value) -> Value {
    msgs_of(v).as_array().unwrap().last().unwrap().clone()
}

#[test]
fn a_prompt_of_parts_reaches_each_provider_in_its_shape_and_reads_back() {
    for style in STYLES {
        let p = Scripted::new(vec![text_in(style, "a cat")]);
        let r = go(style, vec![], &p, &Tools::default(), None, vec![], &prompt_parts());
        assert_eq!(r.text, "a cat");
        assert_eq!(last(&p.bodies()[0]), prompt_wire(style), "{style:?}");
        // The result's messages (what a host stores) read back to the same transcript.
        let back = dialect::read(&r.messages()).unwrap();
        assert_eq!(back, r.transcript, "{style:?}");
        assert!(matches!(&back[back.len() - 2], Message::UserParts(p) if p.len() == 3));
    }
    // Text parts alone are a plain text prompt.
    let m = Message::prompt(&json!([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}])).unwrap();
    assert_eq!(m, Message::User("ab".into()));
}

/// A tool returning `{ output, parts }` (a screenshot).
fn screenshot_tools() -> Tools {
    Tools::default().with("screenshot", |_, _| {
        ToolResult::from_return(json!({"output": "captured", "parts": [{"type": "image", "data": PNG, "mediaType": "image/png"}]}))
    })
}

/// The request after the tool ran: the result with its image, as the provider takes it.
fn result_wire(style: Style, msgs: &[Value]) {
    match style {
        Style::OpenAi => {
            // `tool` messages are text: the image follows as a user message.
            let n = msgs.len();
            assert_eq!(msgs[n - 2], json!({"role": "tool", "tool_call_id": "c1", "content": "captured"}));
            assert_eq!(
                msgs[n - 1],
                json!({"role": "user", "content": [{"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{PNG}")}}]})
            );
        }
        Style::Anthropic => assert_eq!(
            msgs.last().unwrap()["content"][0]["content"],
            json!([{"type": "text", "text": "captured"},
                   {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}])
        ),
        Style::Gemini => assert_eq!(
            msgs.last().unwrap()["parts"],
            json!([{"functionResponse": {"id": "c1", "name": "screenshot", "response": {"output": "captured"}}},
                   {"inlineData": {"mimeType": "image/png", "data": PNG}}])
        ),
        Style::Responses => assert_eq!(
            msgs.last().unwrap()["output"],
            json!([{"type": "input_text", "text": "captured"}, {"type": "input_image", "image_url": format!("data:image/png;base64,{PNG}")}])
        ),
    }
}

#[test]
fn a_tool_result_image_is_rendered_per_provider_and_stays_with_its_result() {
    for style in STYLES {
        let p = Scripted::new(vec![calls_in(style, &[("c1", "screenshot", json!({}))]), text_in(style, "a chart")]);
        let r = go(style, vec![native("screenshot")], &p, &screenshot_tools(), None, vec![], &json!("look"));
        let bodies = p.bodies();
        result_wire(style, msgs_of(&bodies[1]).as_array().unwrap());
        // Read back, the image is the result's again, in every dialect (OpenAI's user message
        // of images only rejoins the result before it).
        let back = dialect::read(&r.messages()).unwrap();
        let Some(Message::Tool(outs)) = back.iter().find(|m| matches!(m, Message::Tool(_))) else { panic!("{back:?}") };
        assert_eq!(outs[0].parts.len(), 1, "{style:?}");
        assert_eq!(back, r.transcript, "{style:?}");
        // A plain returned array stays JSON text.
        assert_eq!(ToolResult::from_return(json!([1, {"type": "image"}])).output, "[1,{\"type\":\"image\"}]");
    }
}

#[test]
fn histories_with_images_in_any_dialect_reach_any_provider() {
    let oa = json!([{"role": "user", "content": [{"type": "text", "text": "see"}, {"type": "image_url", "image_url": {"url": URL, "detail": "low"}}]},
                    {"role": "assistant", "content": "a cat"}]);
    let an = json!([{"role": "user", "content": [{"type": "text", "text": "see"}, {"type": "image", "source": {"type": "url", "url": URL}}]},
                    {"role": "assistant", "content": [{"type": "text", "text": "a cat"}]}]);
    let gm = json!([{"role": "user", "parts": [{"text": "see"}, {"fileData": {"fileUri": URL}}]},
                    {"role": "model", "parts": [{"text": "a cat"}]}]);
    for history in [oa, an, gm] {
        let read = dialect::read(history.as_array().unwrap()).unwrap();
        assert!(matches!(&read[0], Message::UserParts(p) if p.len() == 2), "{history}");
        for style in STYLES {
            let p = Scripted::new(vec![text_in(style, "ok")]);
            go(style, vec![], &p, &Tools::default(), None, read.clone(), &json!("and now?"));
            let first = &msgs_of(&p.bodies()[0])[0];
            let text = first.to_string();
            assert!(text.contains(URL), "{style:?}: the image_url part must not vanish: {text}");
        }
    }
}

#[test]
fn parts_no_provider_can_carry_are_bad_input_never_dropped() {
    for bad in [
        json!([{"type": "input_audio", "input_audio": {"data": "AAAA", "format": "wav"}}]),
        json!([{"type": "image", "data": "AAAA"}]),
        json!([{"type": "image", "url": URL, "mediaType": "application/pdf"}]),
        json!(3),
        json!([]),
    ] {
        assert_eq!(Message::prompt(&bad).unwrap_err().code(), "bad_input", "{bad}");
    }
    for history in [
        json!([{"role": "user", "content": [{"type": "file", "file": {"file_id": "f"}}]}]),
        json!([{"role": "user", "content": [{"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "AA"}}]}]),
        json!([{"role": "user", "parts": [{"inlineData": {"mimeType": "audio/wav", "data": "AA"}}]}]),
        json!([{"role": "tool", "tool_call_id": "c", "content": [{"type": "image_url", "image_url": {"url": "data:image/tiff;base64,AA"}}]}]),
    ] {
        let e = dialect::read(history.as_array().unwrap()).unwrap_err();
        assert_eq!(e.code(), "bad_input", "{history}");
        assert!(e.message.starts_with("history[0]: "), "{}", e.message);
    }
    // A tool's or a relay's unusable parts become an error result the model sees, saying why.
    let r = ToolResult::from_return(json!({"output": "x", "parts": [{"type": "image"}]}));
    assert!(r.is_error && r.output.contains("parts[0]: an image part needs data"), "{r:?}");
    let e = relay_results_from_json(&json!([{"id": "c", "output": "", "parts": [{"type": "video"}]}])).unwrap_err();
    assert_eq!(e.code(), "bad_input");
}

/// A relay `screenshot` halts; the host takes it in a new process and answers with the image.
#[test]
fn a_halt_on_a_screenshot_resumes_in_a_new_process_with_the_image_intact() {
    for style in STYLES {
        let p = Scripted::new(vec![calls_in(style, &[("c1", "screenshot", json!({}))])]);
        let r = go(style, vec![relay("screenshot")], &p, &Tools::default(), None, vec![], &prompt_parts());
        assert_eq!(r.status, Status::Pending);
        let halted = r.to_json();
        assert!(halted.contains(PNG), "the prompt's image is in the halted state");

        let p2 = Scripted::new(vec![text_in(style, "I see a 1x1 png")]);
        let results = json!([{"id": "c1", "output": "captured", "parts": [{"type": "image", "data": PNG}]}]);
        let done = resume_in_new_process(style, vec![relay("screenshot")], &p2, &halted, |req| {
            relay_answer(&req.id, relay_results_from_json(&results).unwrap())
        });
        assert_eq!(done.text, "I see a 1x1 png");
        let msgs = msgs_of(&p2.bodies()[0]);
        let msgs = msgs.as_array().unwrap();
        result_wire_relay(style, msgs);
        // The prompt's image is still there too.
        assert_eq!(msgs[usize::from(style == Style::OpenAi)], prompt_wire(style), "{style:?}");

        // The store keeps it: a conversation state of the finished run loads with both images.
        let saved = serde_json::to_value(ConversationState::new(style, &done.transcript, None)).unwrap();
        let (_, transcript) = state::load_conversation(&saved).unwrap();
        assert_eq!(transcript, done.transcript, "{style:?}");
    }
}

fn result_wire_relay(style: Style, msgs: &[Value]) {
    let text = Value::Array(msgs.to_vec()).to_string();
    assert_eq!(text.matches(PNG).count(), 2, "{style:?}: the prompt's and the screenshot's, once each: {text}");
    match style {
        Style::OpenAi => assert_eq!(msgs.last().unwrap()["content"][0]["type"], "image_url"),
        Style::Anthropic => assert_eq!(msgs.last().unwrap()["content"][0]["content"][1]["source"]["type"], "base64"),
        Style::Gemini => assert_eq!(msgs.last().unwrap()["parts"][1]["inlineData"]["mimeType"], "image/png"),
        Style::Responses => assert_eq!(msgs.last().unwrap()["output"][1]["type"], "input_image"),
    }
}

#[test]
fn a_waitfor_answer_may_carry_parts_in_its_shorthand() {
    for style in STYLES {
        let p = Scripted::new(vec![calls_in(style, &[("c1", "screenshot", json!({}))]), text_in(style, "seen")]);
        let w = Wait::new(|req| ok_answer(req, json!({"output": "shot", "parts": [{"type": "image", "url": URL}]})));
        go(style, vec![relay("screenshot")], &p, &Tools::default(), Some(&w), vec![], &json!("look"));
        assert!(msgs_of(&p.bodies()[1]).to_string().contains(URL), "{style:?}");
    }
}

#[test]
fn a_conversation_with_images_continues_in_another_style() {
    for from in STYLES {
        let p = Scripted::new(vec![calls_in(from, &[("c1", "screenshot", json!({}))]), text_in(from, "a chart")]);
        let r = go(from, vec![native("screenshot")], &p, &screenshot_tools(), None, vec![], &prompt_parts());
        let history = dialect::read(&r.messages()).unwrap();
        for to in STYLES {
            let p2 = Scripted::new(vec![text_in(to, "still a chart")]);
            go(to, vec![native("screenshot")], &p2, &screenshot_tools(), None, history.clone(), &json!("and?"));
            let body = p2.bodies()[0].to_string();
            assert_eq!(body.matches(PNG).count(), 2, "{from:?} -> {to:?}: {body}");
            assert!(body.contains(URL));
            if to == Style::Anthropic {
                assert!(body.contains("\"tool_result\",\"tool_use_id\":\"c1\",\"content\":[{\"type\":\"text\""), "{body}");
            }
        }
    }
}

#[test]
fn translate_carries_image_parts_to_every_provider() {
    let req = json!({"messages": [{"role": "user", "content": [{"type": "text", "text": "see"},
        {"type": "image_url", "image_url": {"url": format!("data:image/jpeg;base64,/9j/4AAQ")}}]}]});
    let t = toolnexus_wasm::translate::TranslateRequest::from_json(&req, &Toolkit::new(vec![]).unwrap()).unwrap();
    for style in STYLES {
        let body = toolnexus_wasm::translate::build(&config(style).provider, "", &t, false).json();
        let user = &msgs_of(&body)[0];
        let image = match style {
            Style::OpenAi => user["content"][1]["image_url"]["url"].clone(),
            Style::Anthropic => user["content"][1]["source"].clone(),
            Style::Gemini => user["parts"][1]["inlineData"].clone(),
            Style::Responses => user["content"][1]["image_url"].clone(),
        };
        let want = match style {
            Style::OpenAi => json!("data:image/jpeg;base64,/9j/4AAQ"),
            Style::Anthropic => json!({"type": "base64", "media_type": "image/jpeg", "data": "/9j/4AAQ"}),
            Style::Gemini => json!({"mimeType": "image/jpeg", "data": "/9j/4AAQ"}),
            Style::Responses => json!("data:image/jpeg;base64,/9j/4AAQ"),
        };
        assert_eq!(image, want, "{style:?}");
    }
}

/// The figures docs/decisions/state.md quotes: a conversation holding one 100 KB screenshot, stored as
/// bytes and as a URL reference.
#[test]
fn state_size_of_a_conversation_with_a_screenshot() {
    let b64 = format!("iVBORw0KGgo{}", "A".repeat(100 * 1024 * 4 / 3)); // a 100 KB png as base64
    for (label, part) in [
        ("bytes", json!({"type": "image", "data": b64, "mediaType": "image/png"})),
        ("url", json!({"type": "image", "url": "https://cdn.example.com/shots/tab-42/0001.png"})),
    ] {
        for style in STYLES {
            let p = Scripted::new(vec![calls_in(style, &[("c1", "screenshot", json!({}))]), text_in(style, "done")]);
            let tools = Tools::default().with("screenshot", {
                let part = part.clone();
                move |_, _| ToolResult::from_return(json!({"output": "captured", "parts": [part]}))
            });
            let r = go(style, vec![native("screenshot")], &p, &tools, None, vec![], &json!("take a screenshot"));
            let state = serde_json::to_string(&ConversationState::new(style, &r.transcript, None)).unwrap();
            let overhead = state.len() - if label == "bytes" { b64.len() } else { 0 };
            println!("state with one screenshot as {label}, {style:?}: {} B ({overhead} B besides the image)", state.len());
            // The image is stored once, and the rest of the state stays small.
            assert!(overhead < 1024, "{label} {style:?}: {overhead}");
            assert_eq!(state.matches(if label == "bytes" { "iVBORw0KGgo" } else { "cdn.example.com" }).count(), 1);
        }
    }
}
