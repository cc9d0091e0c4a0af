//! Revision 2026-07-28 against a scripted server: discovery and the fallback to `initialize`,
//! stateless requests, the saved revision, cacheable listings, and `input_required` as a
//! suspension answered over several rounds.

use super::input::{self, MARK};
use super::session::{Auth, McpClient};
use super::stateless::{self, REVISION};
use super::tests::{header, ids, init, json_reply, ok, Scripted, R};
use super::McpOptions;
use crate::suspend::{Answer, ToolOutcome};
use futures_executor::block_on;
use serde_json::{json, Map, Value};
use std::cell::RefCell;

fn client(replies: Vec<R>, saved: Option<&str>) -> McpClient<Scripted> {
    let opts = McpOptions::from_json(&json!({"server": "srv", "url": "https://mcp.example/mcp"})).unwrap();
    let c = McpClient::new(opts, Scripted { replies: RefCell::new(replies), ..Default::default() });
    c.remember(saved.map(Into::into));
    c
}

fn discovered(id: u64, versions: Value) -> R {
    ok(
        id,
        json!({"supportedVersions": versions, "capabilities": {"tools": {}}, "resultType": "complete", "ttlMs": 0, "cacheScope": "private"}),
    )
}

fn methods(c: &McpClient<Scripted>) -> Vec<String> {
    c.transport.seen.borrow().iter().map(|(_, _, b)| b["method"].as_str().unwrap_or("").to_string()).collect()
}

fn refused(status: u16, body: &str) -> R {
    R(status, "application/json", None, None, vec![body.to_string()])
}

#[test]
fn discovery_chooses_the_stateless_revision_and_every_request_carries_meta_and_routing_headers() {
    let c = client(
        vec![
            discovered(0, json!(["2026-07-28"])),
            ok(1, json!({"tools": [{"name": "echo"}], "resultType": "complete"})),
            ok(2, json!({"content": [{"type": "text", "text": "hi"}], "resultType": "complete"})),
        ],
        None,
    );
    let Auth::Ok(tools) = block_on(c.list_tools()).unwrap() else { panic!("auth") };
    assert_eq!(block_on(c.call("echo", json!({"text": "x"}), None, &ids())).output, "hi");
    assert_eq!(methods(&c), ["server/discover", "tools/list", "tools/call"], "no initialize");
    let seen = c.transport.seen.borrow();
    for (i, (m, h, b)) in seen.iter().enumerate() {
        assert_eq!(m, "POST");
        assert_eq!(header(h, "mcp-protocol-version"), Some(REVISION), "request {i}");
        assert_eq!(header(h, "mcp-method"), b["method"].as_str(), "request {i}");
        assert_eq!(header(h, "mcp-session-id"), None);
        let meta = &b["params"]["_meta"];
        assert_eq!(meta["io.modelcontextprotocol/protocolVersion"], REVISION);
        assert_eq!(meta["io.modelcontextprotocol/clientCapabilities"]["elicitation"], json!({"form": {}, "url": {}}));
        assert_eq!(meta["io.modelcontextprotocol/clientInfo"]["name"], "toolnexus-wasm");
    }
    assert_eq!(header(&seen[2].1, "mcp-name"), Some("echo"));
    assert_eq!(header(&seen[1].1, "mcp-name"), None);
    assert_eq!(seen[2].2["params"]["arguments"], json!({"text": "x"}));
    drop(seen);
    assert_eq!(c.source(&tools)["protocol"], REVISION, "the chosen revision is saved with the entry");
    assert_eq!(c.session_id(), None);
    block_on(c.close()).unwrap();
    assert_eq!(c.transport.seen.borrow().len(), 3, "no session, no DELETE");
}

#[test]
fn every_refusal_of_discovery_by_an_older_server_falls_back_to_initialize() {
    let refusals = [
        refused(400, r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Unsupported protocol version"},"id":null}"#),
        refused(400, r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"},"id":null}"#),
        json_reply(json!({"jsonrpc": "2.0", "id": 0, "error": {"code": -32601, "message": "Method not found"}})),
        R(
            200,
            "text/event-stream",
            None,
            None,
            vec!["event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":0,\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}\n\n"
                .into()],
        ),
        refused(405, ""),
        // A server of the new protocol that does not offer this revision.
        discovered(0, json!(["2027-01-01"])),
    ];
    for (i, refusal) in refusals.into_iter().enumerate() {
        let c = client(vec![refusal, init(1, Some("s1")), R(202, "", None, None, vec![]), ok(2, json!({"tools": []}))], None);
        let Auth::Ok(_) = block_on(c.list_tools()).unwrap() else { panic!("auth") };
        assert_eq!(methods(&c), ["server/discover", "initialize", "notifications/initialized", "tools/list"], "refusal {i}");
        let seen = c.transport.seen.borrow();
        assert_eq!(header(&seen[1].1, "mcp-protocol-version"), None, "initialize is the 2025 protocol");
        assert_eq!(header(&seen[1].1, "mcp-method"), None);
        assert_eq!(header(&seen[3].1, "mcp-session-id"), Some("s1"));
        assert!(seen[3].2["params"].get("_meta").is_none());
        drop(seen);
        assert_eq!(c.source(&[])["protocol"], "2025-06-18");
    }
}

#[test]
fn a_server_error_on_discovery_is_an_error_not_a_fallback() {
    let c = client(vec![refused(503, "busy")], None);
    let e = block_on(c.list_tools()).unwrap_err();
    assert_eq!(e.message, "MCP server srv: server/discover: HTTP 503: busy");
}

#[test]
fn a_saved_revision_is_used_without_probing() {
    let c = client(vec![ok(0, json!({"tools": []}))], Some(REVISION));
    block_on(c.list_tools()).unwrap();
    assert_eq!(methods(&c), ["tools/list"]);
    assert_eq!(header(&c.transport.seen.borrow()[0].1, "mcp-protocol-version"), Some(REVISION));
    let c = client(vec![init(0, None), R(202, "", None, None, vec![]), ok(1, json!({"tools": []}))], Some("2025-06-18"));
    block_on(c.list_tools()).unwrap();
    assert_eq!(methods(&c), ["initialize", "notifications/initialized", "tools/list"]);
    assert_eq!(stateless::saved_revision(&json!({"protocol": "1999-01-01"})), None, "an unknown revision is probed");
}

#[test]
fn a_saved_stateless_revision_the_server_refuses_is_probed_again_once() {
    let c = client(
        vec![
            refused(400, r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Unsupported protocol version"},"id":null}"#),
            refused(400, "no"),
            init(2, None),
            R(202, "", None, None, vec![]),
            ok(3, json!({"tools": []})),
        ],
        Some(REVISION),
    );
    block_on(c.list_tools()).unwrap();
    assert_eq!(methods(&c), ["tools/list", "server/discover", "initialize", "notifications/initialized", "tools/list"]);
}

#[test]
fn a_listing_is_reused_while_its_ttl_says_it_is_fresh() {
    let page = |id| ok(id, json!({"tools": [{"name": "a"}], "resultType": "complete", "ttlMs": 1000}));
    let c = client(vec![page(0), page(1)], Some(REVISION));
    for now in [10_000.0, 10_500.0, 10_999.0] {
        block_on(c.list_tools_at(now)).unwrap();
    }
    assert_eq!(methods(&c).len(), 1);
    block_on(c.list_tools_at(11_000.0)).unwrap();
    assert_eq!(methods(&c).len(), 2, "stale at ttlMs");
    let c = client(vec![ok(0, json!({"tools": [], "ttlMs": 0})), ok(1, json!({"tools": []}))], Some(REVISION));
    block_on(c.list_tools_at(1.0)).unwrap();
    block_on(c.list_tools_at(1.0)).unwrap();
    assert_eq!(methods(&c).len(), 2, "no ttlMs, no cache");
}

fn asks(id: u64, key: &str, params: Value, state: Option<&str>) -> R {
    let mut r = json!({"resultType": "input_required", "inputRequests": {key: {"method": "elicitation/create", "params": params}}});
    if let Some(s) = state {
        r["requestState"] = json!(s);
    }
    ok(id, r)
}

fn suspended(r: crate::tool::ToolResult) -> crate::suspend::Request {
    match ToolOutcome::from_result(r) {
        ToolOutcome::Suspend(req) => req,
        ToolOutcome::Result(r) => panic!("not a suspension: {r:?}"),
    }
}

fn answer(id: &str, ok: bool, responses: Value) -> Answer {
    let mut data = Map::new();
    data.insert("inputResponses".into(), responses);
    Answer { id: id.into(), ok, data: ok.then_some(data), reason: None }
}

#[test]
fn input_required_suspends_and_the_answer_is_sent_back_with_the_request_state_over_several_rounds() {
    let form =
        json!({"message": "Your name?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}, "mode": "form"});
    let colour = json!({"message": "Colour?", "requestedSchema": {"type": "object"}, "mode": "form"});
    let c = client(
        vec![
            asks(0, "name", form.clone(), None),
            asks(1, "colour", colour, Some("name:Ann")),
            ok(2, json!({"content": [{"type": "text", "text": "Ann likes red"}], "resultType": "complete"})),
        ],
        Some(REVISION),
    );
    let req = suspended(block_on(c.call("survey", json!({"n": 1}), None, &ids())));
    assert_eq!((req.kind.as_str(), req.prompt.as_str(), req.url.as_deref()), ("input", "Your name?", None));
    assert_eq!(
        Value::Object(req.data.clone().unwrap()),
        json!({"server": "srv", "inputRequests": {"name": {"method": "elicitation/create", "params": form}}})
    );
    assert!(req.id.starts_with("pnd-") && req.id.contains(MARK), "{}", req.id);
    // Round two: the first answer goes back bare, at the top of params; the server asks again.
    let a = answer(&req.id, true, json!({"name": {"action": "accept", "content": {"name": "Ann"}}}));
    let req2 = suspended(block_on(c.call("survey", json!({"n": 1}), Some(&a), &ids())));
    assert_eq!(req2.prompt, "Colour?");
    assert!(!json!(req2.data).to_string().contains("name:Ann"), "requestState is never in data");
    let a2 = answer(&req2.id, true, json!({"colour": {"action": "accept", "content": {"colour": "red"}}}));
    let r = block_on(c.call("survey", json!({"n": 1}), Some(&a2), &ids()));
    assert_eq!((r.output.as_str(), r.is_error), ("Ann likes red", false));
    let seen = c.transport.seen.borrow();
    let p1 = &seen[1].2["params"];
    assert_eq!((p1["name"].clone(), p1["arguments"].clone()), (json!("survey"), json!({"n": 1})));
    assert_eq!(p1["inputResponses"], json!({"name": {"action": "accept", "content": {"name": "Ann"}}}));
    assert!(p1.get("requestState").is_none(), "the server sent none");
    let p2 = &seen[2].2["params"];
    assert_eq!((p2["requestState"].clone(), p2["inputResponses"]["colour"]["action"].clone()), (json!("name:Ann"), json!("accept")));
    assert_eq!(header(&seen[2].1, "mcp-name"), Some("survey"));
}

#[test]
fn a_url_mode_request_sets_the_url_and_a_refusal_declines_or_cancels() {
    let link = json!({"message": "Link your account", "url": "https://auth.example/link", "mode": "url"});
    let c = client(
        vec![
            asks(0, "link", link.clone(), Some("s-1")),
            ok(1, json!({"content": [{"type": "text", "text": "declined"}]})),
            ok(2, json!({"content": [{"type": "text", "text": "cancelled"}]})),
            ok(3, json!({"content": [{"type": "text", "text": "declined"}]})),
        ],
        Some(REVISION),
    );
    let req = suspended(block_on(c.call("connect", json!({}), None, &ids())));
    assert_eq!((req.prompt.as_str(), req.url.as_deref()), ("Link your account", Some("https://auth.example/link")));
    assert!(req.rerun_on_decline, "the loop must hand the refusal to the call");
    let no = Answer { id: req.id.clone(), ok: false, data: None, reason: None };
    assert_eq!(block_on(c.call("connect", json!({}), Some(&no), &ids())).output, "declined");
    let cancel = Answer { reason: Some("closed the page".into()), ..no };
    assert_eq!(block_on(c.call("connect", json!({}), Some(&cancel), &ids())).output, "cancelled");
    let said_no = Answer { reason: Some("declined".into()), ..cancel };
    assert_eq!(block_on(c.call("connect", json!({}), Some(&said_no), &ids())).output, "declined");
    let seen = c.transport.seen.borrow();
    assert_eq!(seen[1].2["params"]["inputResponses"], json!({"link": {"action": "decline"}}));
    assert_eq!(seen[1].2["params"]["requestState"], "s-1");
    assert_eq!(seen[2].2["params"]["inputResponses"], json!({"link": {"action": "cancel"}}));
    assert_eq!(seen[3].2["params"]["inputResponses"], json!({"link": {"action": "decline"}}), "the reason Answer's type names for a no");
}

#[test]
fn a_url_mode_link_that_is_not_https_is_never_surfaced() {
    for bad in ["javascript:alert(document.cookie)", " JavaScript:x", "data:text/html,<b>x", "http://evil.example/", "file:///etc/passwd"] {
        let link = json!({"message": "Open this", "url": bad, "mode": "url"});
        let c = client(vec![asks(0, "link", link, None)], Some(REVISION));
        let req = suspended(block_on(c.call("connect", json!({}), None, &ids())));
        assert_eq!(req.url, None, "{bad}");
        assert_eq!(req.prompt, "Open this\n(the server's link is not an https URL and is not shown)", "{bad}");
        assert!(!req.prompt.contains(bad.trim()), "{bad}");
    }
    let local = json!({"message": "Open this", "url": "http://127.0.0.1:8080/link", "mode": "url"});
    let c = client(vec![asks(0, "link", local, None)], Some(REVISION));
    assert_eq!(suspended(block_on(c.call("connect", json!({}), None, &ids()))).url.as_deref(), Some("http://127.0.0.1:8080/link"));
}

#[test]
fn an_answer_that_cannot_be_sent_is_an_error_result_and_nothing_is_sent() {
    let c = client(vec![asks(0, "k", json!({"message": "?"}), Some("st"))], Some(REVISION));
    let req = suspended(block_on(c.call("t", json!({}), None, &ids())));
    let r = block_on(c.call("t", json!({}), Some(&Answer { id: req.id.clone(), ok: true, ..Default::default() }), &ids()));
    assert_eq!((r.output.as_str(), r.is_error), ("MCP server srv: the answer carries no data.inputResponses object", true));
    let bad = Answer { id: json_id(&req.id), ..answer("", true, json!({})) };
    let r = block_on(c.call("t", json!({}), Some(&bad), &ids()));
    assert!(r.is_error && r.output.contains("does not carry the request"), "{}", r.output);
    assert_eq!(c.transport.seen.borrow().len(), 1);
}

/// The id with its retry material damaged.
fn json_id(id: &str) -> String {
    let at = crate::small::find(id, MARK).unwrap() + MARK.len();
    format!("{}*{}", &id[..at], &id[at..])
}

#[test]
fn retry_material_round_trips_through_base64url() {
    for s in ["", "a", "ab", "abc", "abcd", "{\"k\":[\"é\"]}"] {
        let e = stateless::b64url(s.as_bytes());
        assert!(e.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
        assert_eq!(stateless::b64url_decode(&e).unwrap(), s.as_bytes());
    }
    assert_eq!(stateless::b64url(b"\xfb\xff"), "-_8");
    assert!(stateless::b64url_decode("a").is_none() && stateless::b64url_decode("a*").is_none());
    assert!(input::retry_params(&Answer { id: "pnd-1".into(), ..Default::default() }).is_none(), "not an input answer");
}

#[test]
fn a_stateless_body_is_the_params_then_meta_and_keeps_a_callers_own_meta_keys() {
    let version = env!("CARGO_PKG_VERSION");
    let ours = format!(
        r#""io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{"elicitation":{{"form":{{}},"url":{{}}}}}},"io.modelcontextprotocol/clientInfo":{{"name":"toolnexus-wasm","version":"{version}"}}"#
    );
    let call = stateless::request(7, "tools/call", &json!({"name": "echo", "arguments": {"text": "a\"b"}}));
    let expected = format!(
        r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"a\"b"}},"_meta":{{{ours}}}}}}}"#
    );
    assert_eq!(call, expected);
    // A caller's `_meta` keys stay (before ours); one of ours it names is ours.
    let params = json!({"_meta": {"progressToken": 1, "io.modelcontextprotocol/protocolVersion": "x"}, "cursor": "c"});
    let listed = stateless::request(8, "tools/list", &params);
    let expected =
        format!(r#"{{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{{"cursor":"c","_meta":{{"progressToken":1,{ours}}}}}}}"#);
    assert_eq!(listed, expected);
    assert_eq!(
        stateless::request(0, "server/discover", &Value::Object(Map::new())),
        format!(r#"{{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{{"_meta":{{{ours}}}}}}}"#)
    );
}
