//! The suspension shapes, ids and answer rules of `suspend.rs`.

use super::*;

#[test]
fn the_host_functions_over_suspensions() {
    let ids = IdGen::new(Box::new(|| 7));
    let relay = json!({"id": "r1", "kind": "tool_call", "prompt": "p", "data": {"calls": [{"id": "c1", "name": "click", "input": {}, "arguments": "{}"}, 5]}});
    assert!(is_relay_request(Some(&relay)));
    assert!(!is_relay_request(Some(&json!({"kind": "approval"}))) && !is_relay_request(None) && !is_relay_request(Some(&json!([]))));
    let calls = relay_calls_of(Some(&relay)).unwrap();
    assert_eq!(
        calls.as_array().map(|c| (c.len(), c[0]["name"].clone())),
        Some((1, json!("click"))),
        "entries that are not calls are skipped"
    );
    assert_eq!(relay_calls_of(Some(&json!({"kind": "approval", "data": {"calls": [{"id": "c"}]}}))).unwrap(), json!([]));
    assert_eq!(relay_calls_of(None).unwrap_err().code, crate::error::Code::BadInput);
    let answer = relay_answer_of("r1", &json!([{"id": "c1", "output": "ok"}])).unwrap();
    assert_eq!(
        (answer["id"].clone(), answer["ok"].clone(), answer["data"]["results"][0]["output"].clone()),
        (json!("r1"), json!(true), json!("ok"))
    );
    assert!(relay_answer_of("r1", &json!("no")).unwrap_err().message.starts_with("results must be ["));
    let p = pending_of(Some(&json!({"kind": "approval", "prompt": "ok?"})), &ids).unwrap();
    assert!(p["metadata"]["pending"]["id"].as_str().is_some_and(|id| id.starts_with("pnd-")), "{p}");
    assert_eq!(pending_of(None, &ids).unwrap_err().message, "pending(request) must be a Request object");
}

#[test]
fn host_requests_and_answers() {
    let msg = |v: Option<Value>| Request::from_host(v.as_ref(), "request").unwrap_err().message;
    assert_eq!(msg(None), "request must be a Request object");
    assert!(msg(Some(json!([]))).starts_with("request is invalid: "));
    assert_eq!(Request::from_host(Some(&json!({"kind": "tool_call"})), "request").unwrap().kind, "tool_call");
    let e = Answer::from_wait_for(&json!("yes")).unwrap_err();
    assert_eq!(e.code, crate::error::Code::HostCallback);
    assert!(e
        .message
        .starts_with("waitFor must resolve to an Answer { id, ok, data? } (for relay calls: relayAnswer(request.id, results)): "));
    assert!(Answer::from_wait_for(&json!({"id": "r", "ok": true})).unwrap().is_some());
    assert_eq!(Answer::from_wait_for(&Value::Null).unwrap(), None, "nothing is no answer");
}

fn ids() -> IdGen {
    IdGen::new(Box::new(|| 1_700_000_000_000))
}

#[test]
fn requests_serialise_with_pinned_keys_and_no_empty_options() {
    let mut d = Map::new();
    d.insert("k".into(), json!("v"));
    let r = Request {
        id: "r1".into(),
        kind: "input".into(),
        prompt: "p".into(),
        url: Some("u".into()),
        data: Some(d.clone()),
        expires_at: Some("2026-01-01T00:00:00Z".into()),
        rerun_on_decline: false,
        call_id: None,
        path: Vec::new(),
    };
    assert_eq!(
        serde_json::to_string(&r).unwrap(),
        r#"{"id":"r1","kind":"input","prompt":"p","url":"u","data":{"k":"v"},"expiresAt":"2026-01-01T00:00:00Z"}"#
    );
    let tagged = r.clone().for_call("c_1");
    assert_eq!(crate::json::to_text(&tagged.to_value()), serde_json::to_string(&tagged).unwrap());
    assert_eq!(Request::from_json(&tagged.to_value(), "pending").unwrap().call_id.as_deref(), Some("c_1"));
    let a = Answer { id: "r1".into(), ok: true, data: Some(d), reason: None };
    assert_eq!(serde_json::to_string(&a).unwrap(), r#"{"id":"r1","ok":true,"data":{"k":"v"}}"#);
}

#[test]
fn host_shapes_are_read_field_by_field_with_named_errors() {
    let r = Request::from_json(&json!({"id": "r", "kind": "input", "data": {"k": 1}}), "pending").unwrap();
    assert_eq!((r.id.as_str(), r.kind.as_str(), r.url.is_none()), ("r", "input", true));
    assert_eq!(Request::from_json(&json!({"id": 5}), "pending").unwrap_err(), "pending.id must be a string");
    assert_eq!(Request::from_json(&json!([]), "pending").unwrap_err(), "pending must be an object");
    let a = Answer::from_json(&json!({"id": "r", "ok": true}), "answer").unwrap();
    assert!(a.ok && a.data.is_none());
    assert_eq!(Answer::from_json(&json!({"ok": "yes"}), "answer").unwrap_err(), "answer.ok must be a boolean");
    assert!(!Answer::from_json(&json!({}), "answer").unwrap().ok, "a missing ok is a decline");
    assert_eq!(RelayResult::from_json(&json!({"output": "x"}), "r").unwrap_err(), "r.id is required");
    assert_eq!(relay_results_from_json(&json!([{"id": "c", "output": "o"}])).unwrap()[0].output, "o");
    let e = relay_results_from_json(&json!({"id": "c"})).unwrap_err().message;
    assert_eq!(e, "results must be [{ id, output, isError?, parts? }]: not an array");
    assert_eq!(RelayResult::from_json(&json!({"id": "c", "output": {"clicked": true}}), "r").unwrap().output, "{\"clicked\":true}");
}

#[test]
fn pending_generates_ids_and_appends_the_url() {
    let g = ids();
    let r = pending_result(auth_required("https://x", None), &g);
    assert!(r.is_error);
    assert_eq!(r.output, "Authorization required to continue\nhttps://x");
    let ToolOutcome::Suspend(p) = ToolOutcome::from_result(r) else { panic!("not a suspension") };
    assert!(p.id.starts_with("pnd-") && p.id.ends_with("-1"), "{}", p.id);
    assert_eq!(base36(35), "z");
    let mut no_id = pending_result(Request::default(), &g);
    no_id.metadata.as_mut().unwrap().insert("pending".into(), json!({"kind": "input"}));
    assert!(matches!(ToolOutcome::from_result(no_id), ToolOutcome::Result(_)), "a marker without an id is a plain result");
}

#[test]
fn relay_answers_match_by_id_then_shorthand() {
    let mut d = Map::new();
    d.insert("results".into(), json!([{"id": "b", "output": "B", "isError": true}]));
    d.insert("output".into(), json!("short"));
    let a = Answer { id: "r".into(), ok: true, data: Some(d), reason: None };
    assert_eq!(relay_output(&a, "b", false).unwrap(), ToolResult::error("B"));
    assert_eq!(relay_output(&a, "a", true).unwrap(), ToolResult::ok("short"));
    assert!(relay_output(&a, "a", false).is_none());
}

#[test]
fn halt_merges_relay_calls_onto_the_first_suspension() {
    let g = ids();
    let call = |id: &str| ToolCall { id: id.into(), name: "click".into(), arguments: "{\"s\": 1}".into(), signature: None };
    let r1 = relay_request(&call("c1"), &Map::new(), &g);
    let r2 = relay_request(&call("c2"), &Map::new(), &g);
    let merged = merge_for_halt(&[r1.clone(), r2]).unwrap();
    assert_eq!(merged.id, r1.id);
    let calls = merged.relay_calls();
    assert_eq!(calls.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), ["c1", "c2"]);
    assert_eq!(calls[0].arguments, "{\"s\": 1}", "raw arguments pass through");
}

#[test]
fn hand_values_equal_the_derives() {
    let bare = Request { id: "r".into(), kind: "k".into(), prompt: "p".into(), ..Request::default() };
    let mut data = Map::new();
    data.insert("x".into(), Value::from(1));
    let full = Request { url: Some("u".into()), data: Some(data), expires_at: Some("e".into()), rerun_on_decline: true, ..bare.clone() };
    for r in [bare, full] {
        assert_eq!(json::to_text(&r.to_value()), serde_json::to_string(&r).unwrap());
    }
    let c = RelayCall { id: "c".into(), name: "n".into(), input: serde_json::json!({"a": [1]}), arguments: "{}".into() };
    assert_eq!(json::to_text(&c.clone().into_value()), serde_json::to_string(&c).unwrap());
    for a in [relay_answer("p", vec![]), Answer { id: "i".into(), ok: false, data: None, reason: Some("declined".into()) }] {
        assert_eq!(a.clone().into_value(), serde_json::to_value(&a).unwrap());
    }
    let r = RelayResult { id: "i".into(), output: "o".into(), is_error: true, parts: vec![] };
    assert_eq!(json::to_text(&r.clone().into_value()), serde_json::to_string(&r).unwrap());
}
