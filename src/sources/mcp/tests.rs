//! The client against a scripted server: each test says what the server answers to each
//! request and checks what the client sent and made of it.

use super::auth::{metadata_url, parse_challenge, Challenge};
use super::session::{Auth, McpClient, SourceRequest, SourceResponse, SourceTransport};
use super::{result, McpOptions, McpTool};
use crate::error::Result;
use crate::http::{ByteStream, WholeBody};
use crate::sources::options::expand_env;
use crate::suspend::{IdGen, ToolOutcome};
use futures_executor::block_on;
use futures_util::future::LocalBoxFuture;
use serde_json::{json, Value};
use std::cell::RefCell;

/// One scripted reply: status, content type, session id, WWW-Authenticate, body chunks.
pub(super) struct R(pub u16, pub &'static str, pub Option<&'static str>, pub Option<&'static str>, pub Vec<String>);

pub(super) fn json_reply(v: Value) -> R {
    R(200, "application/json", None, None, vec![v.to_string()])
}

pub(super) fn ok(id: u64, result: Value) -> R {
    json_reply(json!({"jsonrpc": "2.0", "id": id, "result": result}))
}

pub(super) fn init(id: u64, session: Option<&'static str>) -> R {
    let mut r =
        ok(id, json!({"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}));
    r.2 = session;
    r
}

pub(super) fn accepted() -> R {
    R(202, "", None, None, vec![])
}

struct Chunks(Vec<Vec<u8>>);
impl ByteStream for Chunks {
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>>> {
        let c = if self.0.is_empty() { None } else { Some(self.0.remove(0)) };
        Box::pin(async move { Ok(c) })
    }
}

/// (method, headers, body) of one request.
pub(super) type Seen = (String, Vec<(String, String)>, Value);

#[derive(Default)]
pub(super) struct Scripted {
    pub replies: RefCell<Vec<R>>,
    /// (method, headers, body) of every request, in order.
    pub seen: RefCell<Vec<Seen>>,
    pub urls: RefCell<Vec<String>>,
}

impl SourceTransport for Scripted {
    fn send<'a>(&'a self, req: &'a SourceRequest) -> LocalBoxFuture<'a, Result<SourceResponse>> {
        let body = req.body.as_deref().map_or(Value::Null, |b| serde_json::from_str(b).unwrap());
        self.seen.borrow_mut().push((req.method.to_string(), req.headers.clone(), body));
        self.urls.borrow_mut().push(req.url.clone());
        // Past the script the server is unreachable (discovery may try further documents).
        let next = {
            let mut replies = self.replies.borrow_mut();
            (!replies.is_empty()).then(|| replies.remove(0))
        };
        let Some(r) = next else {
            return Box::pin(async { Err(crate::error::Error::new(crate::error::Code::Transport, "unreachable")) });
        };
        Box::pin(async move {
            let body: Box<dyn ByteStream> = if r.4.len() == 1 {
                Box::new(WholeBody(Some(r.4[0].clone().into_bytes())))
            } else {
                Box::new(Chunks(r.4.into_iter().map(String::into_bytes).collect()))
            };
            Ok(SourceResponse {
                status: r.0,
                content_type: r.1.into(),
                session_id: r.2.map(Into::into),
                www_authenticate: r.3.map(Into::into),
                body,
            })
        })
    }
}

pub(super) fn client(replies: Vec<R>) -> McpClient<Scripted> {
    let opts = McpOptions::from_json(
        &json!({"server": "my srv", "url": "https://mcp.example/mcp", "headers": {"x-key": "k-${KEY}"}, "env": {"KEY": "42"}}),
    )
    .unwrap();
    let c = McpClient::new(opts, Scripted { replies: RefCell::new(replies), ..Default::default() });
    // These scripts are of a session server: no discovery (tests_2026.rs covers it).
    c.remember(Some(super::PROTOCOL_VERSION.into()));
    c
}

pub(super) fn header<'a>(h: &'a [(String, String)], name: &str) -> Option<&'a str> {
    h.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

pub(super) fn ids() -> IdGen {
    IdGen::new(Box::new(|| 1_000))
}

#[test]
fn connects_lists_every_page_and_sends_the_session_headers() {
    let c = client(vec![
        init(0, Some("sess-1")),
        accepted(),
        ok(
            1,
            json!({"tools": [{"name": "echo", "description": "Echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}], "nextCursor": "p2"}),
        ),
        ok(2, json!({"tools": [{"name": "add.numbers"}]})),
    ]);
    let Auth::Ok(tools) = block_on(c.list_tools()).unwrap() else { panic!("auth") };
    assert_eq!(tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["echo", "add.numbers"]);
    let seen = c.transport.seen.borrow();
    let methods: Vec<_> = seen.iter().map(|(_, _, b)| b["method"].as_str().unwrap().to_string()).collect();
    assert_eq!(methods, ["initialize", "notifications/initialized", "tools/list", "tools/list"]);
    let (m, h, b) = &seen[0];
    assert_eq!((m.as_str(), b["params"]["protocolVersion"].as_str()), ("POST", Some(super::PROTOCOL_VERSION)));
    assert_eq!(header(h, "accept"), Some("application/json, text/event-stream"));
    assert_eq!(header(h, "x-key"), Some("k-42"));
    assert_eq!((header(h, "mcp-session-id"), header(h, "mcp-protocol-version")), (None, None));
    assert!(seen[1].2.get("id").is_none(), "a notification has no id");
    let (_, h, b) = &seen[3];
    assert_eq!((header(h, "mcp-session-id"), header(h, "mcp-protocol-version")), (Some("sess-1"), Some("2025-06-18")));
    assert_eq!(b["params"], json!({"cursor": "p2"}));
    assert_eq!(seen[2].2["params"], json!({}));
    drop(seen);
    // the declarations the model sees
    let d = tools[0].declaration("my srv");
    assert_eq!(d["name"], "my_srv_echo");
    assert_eq!(d["source"], "mcp");
    assert_eq!(
        d["inputSchema"],
        json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"], "additionalProperties": false})
    );
    assert_eq!(tools[1].declaration("my srv")["name"], "my_srv_add_numbers");
    assert_eq!(tools[1].declaration("s")["inputSchema"], json!({"type": "object", "properties": {}, "additionalProperties": false}));
}

#[test]
fn a_repeated_cursor_is_an_error() {
    let c = client(vec![
        init(0, None),
        accepted(),
        ok(1, json!({"tools": [], "nextCursor": "a"})),
        ok(2, json!({"tools": [], "nextCursor": "a"})),
    ]);
    let e = block_on(c.list_tools()).unwrap_err();
    assert_eq!((e.code(), e.message.as_str()), ("transport", "MCP server my srv: tools/list returned a cursor twice: a"));
}

#[test]
fn an_sse_reply_is_read_past_notifications_and_across_chunk_boundaries() {
    let stream = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n\
                  data: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n\n\
                  event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"héllo\"}]}}\n\n";
    let (a, b) = stream.split_at(37);
    let (b, c) = b.split_at(60);
    let sse = R(200, "text/event-stream", None, None, vec![a.into(), b.into(), c.into(), "data: never read\n\n".into()]);
    let cl = client(vec![init(0, None), accepted(), ok(1, json!({"tools": []})), sse]);
    block_on(cl.list_tools()).unwrap();
    let r = block_on(cl.call("echo", json!({"text": "héllo"}), None, &ids()));
    assert_eq!((r.output.as_str(), r.is_error), ("héllo", false));
    assert_eq!(cl.transport.seen.borrow()[3].2["params"], json!({"name": "echo", "arguments": {"text": "héllo"}}));
}

#[test]
fn results_follow_the_reference_rules() {
    let err = result::call_result(
        "s",
        &json!({"isError": true, "content": [{"type": "text", "text": "bad"}, {"type": "text", "text": "  "}, {"type": "text", "text": "worse"}]}),
    );
    assert_eq!((err.output.as_str(), err.is_error), ("bad\n\nworse", true));
    let empty_err = result::call_result("s", &json!({"isError": true, "content": []}));
    assert_eq!(empty_err.output, "MCP tool returned an error");
    let structured =
        result::call_result("s", &json!({"content": [{"type": "text", "text": "ignored"}], "structuredContent": {"b": 1, "a": [2]}}));
    assert_eq!((structured.output.as_str(), structured.is_error), (r#"{"b":1,"a":[2]}"#, false));
    let text = result::call_result(
        "s",
        &json!({"content": [{"type": "text", "text": "one"}, {"type": "image", "data": "iVBORw0K", "mimeType": "image/png"}, {"type": "text", "text": "two"}, {"type": "resource_link", "uri": "file:///a", "name": "a"}]}),
    );
    assert_eq!(text.output, "one\ntwo");
    let meta = text.metadata.unwrap();
    assert_eq!(meta["server"], "s");
    assert_eq!(
        meta["content"],
        json!([{"type": "image", "data": "iVBORw0K", "mimeType": "image/png"}, {"type": "resource_link", "uri": "file:///a", "name": "a"}])
    );
    assert!(result::call_result("s", &json!({"content": [{"type": "text", "text": "x"}]})).metadata.unwrap().get("content").is_none());
}

#[test]
fn images_become_parts_the_model_sees() {
    use crate::part::{Image, Part};
    let content = json!([
        {"type": "text", "text": "shot"},
        {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
        {"type": "image", "data": "PHN2Zz4=", "mimeType": "image/svg+xml"},
        {"type": "resource_link", "uri": "file:///a", "name": "a"},
        {"type": "image", "data": "/9j/4AAQ"},
        {"type": "audio", "data": "UklGR", "mimeType": "audio/wav"},
    ]);
    let r = result::call_result("s", &json!({ "content": content }));
    let (r_value, parts) = (r.to_value(), r.parts.clone());
    let png = Image { source: "iVBORw0KGgo=".into(), inline: true, media_type: "image/png".into() };
    let jpeg = Image { source: "/9j/4AAQ".into(), inline: true, media_type: "image/jpeg".into() };
    assert_eq!(r.parts, vec![Part::Image(png), Part::Image(jpeg)], "png kept, jpeg recognised from its bytes");
    assert!(r.output.starts_with("shot\n\n[an image was not sent to the model: image mediaType image/svg+xml"), "{}", r.output);
    assert!(!r.is_error);
    let meta = r.metadata.unwrap();
    let kept: Vec<&Value> = content.as_array().unwrap().iter().filter(|p| p["type"] != "text").collect();
    assert_eq!(meta["content"].as_array().unwrap().iter().collect::<Vec<_>>(), kept, "metadata.content as before");
    // an error result carries its image too; a result without images has no parts and no note
    let err =
        result::call_result("s", &json!({"isError": true, "content": [{"type": "image", "data": "R0lGODlh", "mimeType": "image/gif"}]}));
    assert_eq!((err.output.as_str(), err.is_error, err.parts.len()), ("MCP tool returned an error", true, 1));
    let plain = result::call_result("s", &json!({"content": [{"type": "text", "text": "x"}]}));
    assert_eq!((plain.output.as_str(), plain.parts.len()), ("x", 0));
    // a lone unusable image: the note is the whole output
    let bad = result::call_result("s", &json!({"content": [{"type": "image", "mimeType": "image/png"}]}));
    assert_eq!(bad.output, "[an image was not sent to the model: an image part needs data (base64) or a url]");
    let back = crate::tool::ToolResult::from_return(r_value);
    assert_eq!(back.parts, parts, "the value `run` returns reads back with its images");
}

#[test]
fn failures_become_error_results_the_model_sees() {
    let rpc_err = json_reply(json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "Unknown tool: nope"}}));
    let c = client(vec![init(0, None), accepted(), rpc_err, R(500, "text/plain", None, None, vec!["x".repeat(300)])]);
    let r = block_on(c.call("nope", json!({}), None, &ids()));
    assert_eq!((r.output.as_str(), r.is_error), ("MCP server my srv: tools/call: error -32602: Unknown tool: nope", true));
    let r = block_on(c.call("t", json!({}), None, &ids()));
    assert!(r.is_error);
    assert!(r.output.starts_with("MCP server my srv: tools/call: HTTP 500: xxx"), "{}", r.output);
    assert!(r.output.chars().count() < 260, "the body is capped");
}

#[test]
fn a_lost_session_is_initialised_again_and_the_request_retried_once() {
    let c = client(vec![
        init(0, Some("a")),
        accepted(),
        ok(1, json!({"tools": []})),
        R(404, "text/plain", None, None, vec!["no session".into()]),
        init(3, Some("b")),
        accepted(),
        ok(4, json!({"content": [{"type": "text", "text": "ok"}]})),
        R(200, "", None, None, vec![]),
    ]);
    block_on(c.list_tools()).unwrap();
    let r = block_on(c.call("t", json!({}), None, &ids()));
    assert_eq!(r.output, "ok");
    let seen = c.transport.seen.borrow();
    assert_eq!(header(&seen[4].1, "mcp-session-id"), None, "a new initialize carries no session");
    assert_eq!(header(&seen[6].1, "mcp-session-id"), Some("b"));
    drop(seen);
    block_on(c.close()).unwrap();
    let seen = c.transport.seen.borrow();
    let (m, h, b) = seen.last().unwrap();
    assert_eq!((m.as_str(), header(h, "mcp-session-id"), b), ("DELETE", Some("b"), &Value::Null));
    drop(seen);
    assert!(!c.is_connected() && c.session_id().is_none());
    block_on(c.close()).unwrap();
    assert_eq!(c.transport.seen.borrow().len(), 8, "no session, no DELETE");
}

#[test]
fn a_bearer_challenge_suspends_the_call_with_the_authorization_server() {
    let www = Some(
        r#"Bearer error="invalid_token", resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp", scope="tools:read tools:call""#,
    );
    let meta = json_reply(json!({"resource": "https://mcp.example/mcp", "authorization_servers": ["https://auth.example"]}));
    let c = client(vec![R(401, "application/json", None, www, vec!["{}".into()]), meta]);
    let r = block_on(c.call("t", json!({}), None, &ids()));
    let ToolOutcome::Suspend(req) = ToolOutcome::from_result(r) else { panic!("not a suspension") };
    assert_eq!(req.kind, "authorization");
    assert_eq!(req.prompt, "MCP server my srv requires authorization");
    assert_eq!(req.url.as_deref(), Some("https://auth.example"));
    assert!(req.id.starts_with("pnd-"));
    assert_eq!(
        Value::Object(req.data.unwrap()),
        json!({"server": "my srv", "serverUrl": "https://mcp.example/mcp",
               "resourceMetadata": "https://mcp.example/.well-known/oauth-protected-resource/mcp",
               "authorizationServer": "https://auth.example", "resource": "https://mcp.example/mcp", "scope": "tools:read tools:call"})
    );
    let seen = c.transport.seen.borrow();
    assert_eq!((seen[1].0.as_str(), header(&seen[1].1, "x-key")), ("GET", None), "the metadata is read without the host's headers");
    drop(seen);
    // the retry after the host answered: a second refusal is an error result, not a new suspension
    let c = client(vec![R(401, "", None, Some("Bearer"), vec![])]);
    let r = block_on(c.call("t", json!({}), Some(&crate::suspend::Answer { id: "pnd-1".into(), ok: true, ..Default::default() }), &ids()));
    assert_eq!((r.output.as_str(), r.is_error), ("MCP server my srv refused the authorization it asked for", true));
    assert!(matches!(ToolOutcome::from_result(r), ToolOutcome::Result(_)));
}

#[test]
fn a_challenge_without_metadata_points_at_the_well_known_document() {
    let c = client(vec![R(401, "", None, None, vec![]), R(404, "", None, None, vec![])]);
    let r = block_on(c.call("t", json!({}), None, &ids()));
    let ToolOutcome::Suspend(req) = ToolOutcome::from_result(r) else { panic!("not a suspension") };
    assert_eq!(req.url.as_deref(), Some("https://mcp.example/.well-known/oauth-protected-resource/mcp"));
    assert!(req.data.unwrap().get("authorizationServer").is_none());
}

#[test]
fn challenges_are_parsed_among_other_schemes() {
    let c = parse_challenge(r#"Basic realm="x", Bearer resource_metadata="https://a/b?c=1,2", error=invalid_token, scope="a \"b\"""#);
    assert_eq!(
        c,
        Challenge {
            resource_metadata: Some("https://a/b?c=1,2".into()),
            scope: Some("a \"b\"".into()),
            error: Some("invalid_token".into())
        }
    );
    assert_eq!(parse_challenge("Basic realm=\"x\""), Challenge::default());
    assert_eq!(parse_challenge("bearer"), Challenge::default());
    assert_eq!(metadata_url("http://h:1/", &Challenge::default()), "http://h:1/.well-known/oauth-protected-resource");
    assert_eq!(metadata_url("http://h:1", &Challenge::default()), "http://h:1/.well-known/oauth-protected-resource");
}

#[test]
fn options_are_checked_and_the_entry_is_data() {
    let bad = |v: Value| McpOptions::from_json(&v).unwrap_err().message;
    assert_eq!(bad(json!({"url": "https://a"})), "mcpTools(options).server is required (a non-empty string)");
    assert_eq!(bad(json!({"server": "s", "url": "ftp://a"})), "mcpTools(options).url must be an http(s) URL");
    assert_eq!(
        bad(json!({"server": "s", "url": "http://a", "timeoutMs": 0})),
        "mcpTools(options).timeoutMs must be a positive number of milliseconds, at most 2147483647"
    );
    assert_eq!(bad(json!({"server": "s", "url": "http://a", "headers": {"a": 1}})), "mcpTools(options).headers.a must be a string");
    assert_eq!(
        bad(json!({"server": "s", "url": "http://a", "tools": [{}]})),
        "mcpTools(options).tools[0] must be { name, description?, inputSchema? }"
    );
    let o = McpOptions::from_json(
        &json!({"server": "s", "url": "http://a", "headers": {"authorization": "Bearer ${T}"}, "env": {"T": "sekrit"}, "timeoutMs": 500}),
    )
    .unwrap();
    assert_eq!(o.expanded_headers(), vec![("authorization".to_string(), "Bearer sekrit".to_string())]);
    let tools = vec![McpTool::from_listing(&json!({"name": "t"})).unwrap()];
    let src = o.source(&tools);
    assert_eq!(
        src,
        json!({"server": "s", "url": "http://a", "headers": {"authorization": "Bearer ${T}"}, "timeoutMs": 500.0,
               "tools": [{"name": "t", "description": "", "inputSchema": {}}]})
    );
    assert!(!src.to_string().contains("sekrit"), "env stays out of the entry");
    assert_eq!(McpOptions::from_json(&src).unwrap().tools.unwrap(), tools);
    let env = json!({"A": "1"});
    let env = env.as_object().unwrap();
    assert_eq!(expand_env("${A}-${B}-${}-${a b}-$A-${A", env), "1--${}-${a b}-$A-${A");
}

#[test]
fn an_unsupported_protocol_version_is_refused() {
    let r = ok(0, json!({"protocolVersion": "1999-01-01"}));
    let c = client(vec![r]);
    let e = block_on(c.connect()).unwrap_err();
    assert_eq!(e.message, "MCP server my srv: unsupported protocol version \"1999-01-01\"");
}

#[test]
fn a_server_that_refuses_the_post_is_spoken_to_over_the_legacy_sse_transport() {
    let stream = vec![
        ": hello\n\nevent: endpoint\ndata: /messages?sessionId=abc\n\n".to_string(),
        "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"protocolVersion\":\"2024-11-05\"}}\n\n".to_string(),
        "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[{\"name\":\"t\"}]}}\n\n".to_string(),
        "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"legacy ok\"}]}}\n\n".to_string(),
    ];
    let c = client(vec![
        R(405, "text/plain", None, None, vec!["Method Not Allowed".into()]),
        R(200, "text/event-stream", None, None, stream),
        accepted(),
        accepted(),
        accepted(),
        accepted(),
    ]);
    let Auth::Ok(tools) = block_on(c.list_tools()).unwrap() else { panic!("auth") };
    assert_eq!(tools[0].name, "t");
    let r = block_on(c.call("t", json!({}), None, &ids()));
    assert_eq!(r.output, "legacy ok");
    let seen = c.transport.seen.borrow();
    let summary: Vec<(String, Option<&str>)> =
        seen.iter().map(|(m, h, b)| (m.clone(), b.get("method").and_then(Value::as_str).or(header(h, "accept")))).collect();
    assert_eq!(
        summary,
        [
            ("POST".to_string(), Some("initialize")),
            ("GET".to_string(), Some("text/event-stream")),
            ("POST".to_string(), Some("initialize")),
            ("POST".to_string(), Some("notifications/initialized")),
            ("POST".to_string(), Some("tools/list")),
            ("POST".to_string(), Some("tools/call")),
        ]
    );
    let urls = c.transport.urls.borrow();
    assert_eq!(urls[..2], ["https://mcp.example/mcp", "https://mcp.example/mcp"]);
    assert!(urls[2..].iter().all(|u| u == "https://mcp.example/messages?sessionId=abc"), "messages go to the endpoint");
}

#[test]
fn no_legacy_stream_either_is_one_error_naming_both_attempts() {
    let c = client(vec![R(404, "text/plain", None, None, vec!["nope".into()]), R(404, "text/html", None, None, vec!["".into()])]);
    let e = block_on(c.connect()).unwrap_err();
    assert_eq!(e.message, "MCP server my srv: initialize: HTTP 404: nope (and no legacy HTTP+SSE stream: GET HTTP 404)");
}

#[test]
fn concurrent_first_calls_share_one_session() {
    let c = client(vec![
        init(0, Some("only")),
        accepted(),
        ok(1, json!({"content": [{"type": "text", "text": "a"}]})),
        ok(2, json!({"content": [{"type": "text", "text": "b"}]})),
    ]);
    let ids = ids();
    let (a, b) = block_on(futures_util::future::join(c.call("t", json!({}), None, &ids), c.call("t", json!({}), None, &ids)));
    assert_eq!((a.output.as_str(), b.output.as_str()), ("a", "b"));
    let seen = c.transport.seen.borrow();
    assert_eq!(seen.iter().filter(|(_, _, b)| b["method"] == "initialize").count(), 1);
    assert!(seen[2..].iter().all(|(_, h, _)| header(h, "mcp-session-id") == Some("only")));
}

#[test]
fn requests_from_the_server_on_a_reply_stream_are_answered_at_once() {
    let stream = "data: {\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"ping\"}\n\n\
                  data: {\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"elicitation/create\",\"params\":{}}\n\n\
                  data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}}\n\n";
    let c =
        client(vec![init(0, Some("s")), accepted(), R(200, "text/event-stream", None, None, vec![stream.into()]), accepted(), accepted()]);
    assert_eq!(block_on(c.call("t", json!({}), None, &ids())).output, "ok");
    let seen = c.transport.seen.borrow();
    assert_eq!(seen[3].2, json!({"jsonrpc": "2.0", "id": "s1", "result": {}}));
    assert_eq!(seen[4].2, json!({"jsonrpc": "2.0", "id": 7, "error": {"code": -32601, "message": "Method not found: elicitation/create"}}));
    assert_eq!(header(&seen[4].1, "mcp-session-id"), Some("s"));
}
