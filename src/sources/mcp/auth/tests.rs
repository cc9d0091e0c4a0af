//! The authorization flow without a network: URL rules, discovery order, the authorization URL,
//! and the checks of the authorization response.

use super::flow::{self, Answered, AsMetadata, OAuthClient, Pending, Problem, Refusal};
use super::urls::{self, fetchable, visitable};
use super::*;
use crate::sources::mcp::session::{McpClient, SourceRequest, SourceResponse, SourceTransport};
use crate::sources::mcp::stateless::b64url_decode;
use crate::sources::mcp::tests::{header, ids, json_reply, ok, Scripted, R};
use crate::sources::mcp::McpOptions;
use crate::suspend::{Answer, ToolOutcome};
use futures_executor::block_on;
use futures_util::future::LocalBoxFuture;
use serde_json::{json, Value};
use std::cell::RefCell;

#[test]
fn only_https_or_loopback_http_urls_are_visited() {
    for u in ["https://auth.test/x", "http://localhost:3000/a", "http://127.0.0.1/", "http://[::1]:8/", "HTTPS://Auth.Test"] {
        assert!(visitable(u), "{u}");
    }
    for u in [
        "javascript:alert(1)",
        "JAVASCRIPT:x",
        "data:text/html,x",
        "http://auth.test/",
        "http://localhost@evil.test/",
        "https://user:pw@auth.test/",
        "http://127.0.0.1.evil.test/",
        "https://",
        "file:///x",
        "https://auth.test\\@evil.test/",
        "https://auth.test/ x",
        "https://a\u{e9}.test/",
        "https://auth.test:99999999/",
    ] {
        assert!(!visitable(u), "{u}");
    }
    assert!(!visitable(&["https://a.test/", &"x".repeat(urls::MAX_URL)].concat()), "too long");
    // http on loopback is followed only for a server that is itself on loopback
    assert!(fetchable("http://127.0.0.1:9/as", "http://127.0.0.1:8/mcp"));
    assert!(!fetchable("http://127.0.0.1:9/as", "https://mcp.test/mcp"));
    assert!(!fetchable("https://as.test/x#f", "https://mcp.test/mcp"), "no fragment");
}

#[test]
fn discovery_urls_are_tried_in_the_order_the_spec_gives() {
    assert_eq!(
        urls::resource_metadata_urls("https://mcp.test/api/mcp/?x=1"),
        ["https://mcp.test/.well-known/oauth-protected-resource/api/mcp", "https://mcp.test/.well-known/oauth-protected-resource"]
    );
    assert_eq!(urls::resource_metadata_urls("https://MCP.test/"), ["https://mcp.test/.well-known/oauth-protected-resource"]);
    assert_eq!(
        urls::authorization_server_metadata_urls("https://auth.test/tenant1/"),
        [
            "https://auth.test/.well-known/oauth-authorization-server/tenant1",
            "https://auth.test/.well-known/openid-configuration/tenant1",
            "https://auth.test/tenant1/.well-known/openid-configuration",
        ]
    );
    assert_eq!(
        urls::authorization_server_metadata_urls("https://auth.test"),
        ["https://auth.test/.well-known/oauth-authorization-server", "https://auth.test/.well-known/openid-configuration"]
    );
    assert!(urls::authorization_server_metadata_urls("javascript:x").is_empty());
    assert_eq!(metadata_url("http://h:1/", &Challenge::default()), "http://h:1/.well-known/oauth-protected-resource");
}

#[test]
fn resources_and_canonical_uris() {
    assert!(urls::resource_covers("https://mcp.test/mcp", "https://MCP.test/mcp"));
    assert!(urls::resource_covers("https://mcp.test", "https://mcp.test/mcp"));
    assert!(urls::resource_covers("https://mcp.test/a/", "https://mcp.test/a/mcp"));
    assert!(!urls::resource_covers("https://mcp.test/a", "https://mcp.test/ab"));
    assert!(!urls::resource_covers("https://other.test/mcp", "https://mcp.test/mcp"));
    assert!(!urls::resource_covers("http://mcp.test/mcp", "https://mcp.test/mcp"));
    assert_eq!(urls::canonical("HTTPS://MCP.Test/").as_deref(), Some("https://mcp.test"));
    assert_eq!(urls::canonical("https://mcp.test:8443/Srv/mcp#f").as_deref(), Some("https://mcp.test:8443/Srv/mcp"));
}

#[test]
fn the_oauth_client_option_is_checked() {
    let read = |v: Value| OAuthClient::from_json(Some(&v), "mcpTools(options)");
    let c = read(json!({"redirectUri": "https://ext.chromiumapp.org/", "clientMetadataUrl": "https://app.test/client.json"}));
    assert_eq!(
        c.unwrap().unwrap().to_value(),
        json!({"redirectUri": "https://ext.chromiumapp.org/", "clientMetadataUrl": "https://app.test/client.json"})
    );
    assert_eq!(OAuthClient::from_json(None, "o"), Ok(None));
    let err = |v: Value| read(v).unwrap_err();
    assert_eq!(
        err(json!({"redirectUri": "javascript:alert(1)", "clientId": "c"})),
        "mcpTools(options).oauth.redirectUri must be an https URL (or http on a loopback host) without a fragment"
    );
    assert!(err(json!({"redirectUri": "http://app.test/cb", "clientId": "c"})).contains("redirectUri"));
    assert_eq!(
        err(json!({"redirectUri": "http://127.0.0.1:9/cb", "clientMetadataUrl": "https://app.test/"})),
        "mcpTools(options).oauth.clientMetadataUrl must be an https URL with a path (a Client ID Metadata Document)"
    );
    assert_eq!(err(json!({"redirectUri": "http://127.0.0.1:9/cb"})), "mcpTools(options).oauth needs clientId or clientMetadataUrl");
    assert_eq!(err(json!("x")), "mcpTools(options).oauth must be an object");
    assert!(err(json!({"redirectUri": "https://a.test/", "clientId": "a\nb"})).contains("clientId"));
}

fn meta(doc: Value) -> Option<AsMetadata> {
    flow::read_as_metadata(&doc, "https://auth.test/t", "https://mcp.test/mcp")
}

#[test]
fn server_metadata_is_used_only_for_its_own_issuer_and_safe_endpoints() {
    let good = json!({"issuer": "https://auth.test/t", "authorization_endpoint": "https://auth.test/t/authorize",
        "token_endpoint": "https://auth.test/t/token", "code_challenge_methods_supported": ["plain", "S256"],
        "authorization_response_iss_parameter_supported": true, "client_id_metadata_document_supported": true});
    let m = meta(good.clone()).unwrap();
    assert!(m.s256 && m.iss_supported && m.cimd);
    let with = |k: &str, v: Value| {
        let mut d = good.clone();
        d[k] = v;
        d
    };
    assert_eq!(meta(with("issuer", json!("https://auth.test/t/"))), None, "the issuer is compared exactly");
    assert_eq!(meta(with("authorization_endpoint", json!("javascript:alert(1)"))), None);
    assert_eq!(meta(with("token_endpoint", json!("http://auth.test/token"))), None);
    assert!(!meta(with("code_challenge_methods_supported", json!(["plain"]))).unwrap().s256);
    let mut d = good.clone();
    d.as_object_mut().unwrap().remove("code_challenge_methods_supported");
    assert!(!meta(d).unwrap().s256, "absent means no PKCE");
}

#[test]
fn the_client_id_follows_the_priority_of_the_spec() {
    let m = |cimd| AsMetadata {
        issuer: "https://auth.test".into(),
        authorization_endpoint: String::new(),
        token_endpoint: String::new(),
        s256: true,
        iss_supported: false,
        cimd,
    };
    let c = |id: Option<&str>, doc: Option<&str>, iss: Option<&str>| OAuthClient {
        redirect_uri: "https://r.test/".into(),
        client_id: id.map(Into::into),
        client_metadata_url: doc.map(Into::into),
        issuer: iss.map(Into::into),
    };
    let doc = Some("https://app.test/c.json");
    assert_eq!(flow::client_id(&c(Some("pre"), doc, None), &m(true)), Ok(("pre".into(), false)), "pre-registered first");
    assert_eq!(flow::client_id(&c(None, doc, None), &m(true)), Ok(("https://app.test/c.json".into(), true)));
    assert_eq!(flow::client_id(&c(None, doc, None), &m(false)), Err(Problem::NoClientId), "no DCR");
    assert_eq!(flow::client_id(&c(Some("pre"), None, Some("https://other.test")), &m(true)), Err(Problem::ClientIdIssuer));
    assert_eq!(flow::client_id(&c(Some("pre"), doc, Some("https://other.test")), &m(true)), Ok(("https://app.test/c.json".into(), true)));
}

#[test]
fn scope_and_the_authorization_url() {
    let prm = json!({"scopes_supported": ["a", "b:c", 5]});
    assert_eq!(flow::scope(Some(" files:read "), Some(&prm)).as_deref(), Some("files:read"), "the challenge's first");
    assert_eq!(flow::scope(None, Some(&prm)).as_deref(), Some("a b:c"));
    assert_eq!(flow::scope(Some(""), None), None);
    let p = flow::AuthParams {
        client_id: "https://app.test/c.json",
        redirect_uri: "https://ext.chromiumapp.org/",
        scope: Some("a b"),
        resource: "https://mcp.test/mcp",
        state: "st",
        challenge: "ch",
    };
    assert_eq!(
        flow::authorization_url("https://auth.test/authorize?tenant=x", &p),
        "https://auth.test/authorize?tenant=x&response_type=code&client_id=https%3A%2F%2Fapp.test%2Fc.json\
         &redirect_uri=https%3A%2F%2Fext.chromiumapp.org%2F&scope=a%20b&resource=https%3A%2F%2Fmcp.test%2Fmcp\
         &state=st&code_challenge=ch&code_challenge_method=S256"
    );
}

fn pending(iss_required: bool) -> Pending {
    Pending {
        state: "S-1".into(),
        issuer: "https://auth.test/t".into(),
        iss_required,
        token_endpoint: "https://auth.test/t/token".into(),
        client_id: "cid".into(),
        redirect_uri: "https://ext.chromiumapp.org/cb".into(),
        resource: "https://mcp.test/mcp".into(),
        code_verifier: "v".repeat(43),
    }
}

#[test]
fn the_authorization_response_is_checked_before_its_code_is_used() {
    let check = |cb: &str, req: bool| flow::check_callback(cb, &pending(req));
    let at = |q: &str| ["https://ext.chromiumapp.org/cb?", q].concat();
    let iss = "iss=https%3A%2F%2Fauth.test%2Ft";
    assert_eq!(check(&at(&["code=C%2B1&state=S-1&", iss].concat()), true), Ok("C+1".into()));
    assert_eq!(check(&at("code=C&state=S-1"), false), Ok("C".into()), "no iss, none promised: proceed");
    assert_eq!(check(&at("code=C&state=S-1"), true), Err(Refusal::IssMissing));
    // RFC 9207: compared as strings, without normalisation, whether or not it was promised
    for bad in ["iss=https%3A%2F%2Fauth.test%2Ft%2F", "iss=https%3A%2F%2FAUTH.test%2Ft", "iss=https%3A%2F%2Fevil.test"] {
        assert_eq!(check(&at(&["code=C&state=S-1&", bad].concat()), false), Err(Refusal::IssMismatch), "{bad}");
    }
    // a mismatched iss hides the error too; a matching one lets it through, state checked first
    assert_eq!(check(&at("error=access_denied&state=S-1&iss=x"), false), Err(Refusal::IssMismatch));
    assert_eq!(check(&at(&["error=access_denied&state=S-1&", iss].concat()), true), Err(Refusal::Refused("access_denied".into())));
    assert_eq!(check(&at("error=access_denied&state=S-2"), false), Err(Refusal::StateMismatch));
    assert_eq!(check(&at("error=%22%0A"), false), Err(Refusal::StateMissing));
    assert_eq!(check(&at("error=%22%0A&state=S-1"), false), Err(Refusal::Refused(String::new())));
    assert_eq!(check(&at("code=C&state=S-2"), false), Err(Refusal::StateMismatch));
    assert_eq!(check(&at("code=C"), false), Err(Refusal::StateMissing));
    assert_eq!(check(&at("code=C&state=S-1&state=S-1"), false), Err(Refusal::Repeated));
    assert_eq!(check(&at("code=&state=S-1"), false), Err(Refusal::NoCode));
    assert_eq!(check(&at(&["state=S-1&code=", &"c".repeat(flow::MAX_CODE + 1)].concat()), false), Err(Refusal::NoCode));
    assert_eq!(check(&at("code=%zz&state=S-1"), false), Err(Refusal::NotACallback));
    for wrong in ["https://evil.test/cb?code=C&state=S-1", "https://ext.chromiumapp.org/other?code=C&state=S-1", "javascript:x"] {
        assert_eq!(check(wrong, false), Err(Refusal::WrongRedirect), "{wrong}");
    }
}

#[test]
fn the_pending_record_rides_in_the_id_and_answers_are_read_from_it() {
    let p = pending(true);
    let id = p.id("pnd-1-1");
    assert!(id.starts_with("pnd-1-1~mcp-auth."));
    assert_eq!(Pending::from_id(&id), Some(Some(p.clone())));
    assert_eq!(Pending::from_id("pnd-1-1"), None);
    assert_eq!(Pending::from_id("pnd-1-1~mcp-auth.!!"), Some(None));
    let answer = |id: &str, ok: bool, data: Option<Value>| Answer {
        id: id.into(),
        ok,
        data: data.and_then(|d| d.as_object().cloned()),
        reason: None,
    };
    let cb = "https://ext.chromiumapp.org/cb?code=C&state=S-1&iss=https%3A%2F%2Fauth.test%2Ft";
    let Some(Ok(Answered::Grant(g))) = flow::answered(&answer(&id, true, Some(json!({"callbackUrl": cb})))) else { panic!() };
    assert_eq!(
        g,
        json!({"tokenEndpoint": "https://auth.test/t/token", "code": "C", "codeVerifier": "v".repeat(43),
               "redirectUri": "https://ext.chromiumapp.org/cb", "clientId": "cid", "resource": "https://mcp.test/mcp",
               "issuer": "https://auth.test/t"})
    );
    assert_eq!(flow::answered(&answer(&id, true, None)), Some(Ok(Answered::Plain)), "the host did everything, as before");
    assert_eq!(flow::answered(&answer(&id, false, None)), Some(Err(Refusal::Declined)));
    assert_eq!(flow::answered(&answer(&id, true, Some(json!({"callbackUrl": 5})))), Some(Err(Refusal::NotACallback)));
    assert_eq!(flow::answered(&answer("pnd-9~mcp-auth.e30", true, Some(json!({"callbackUrl": cb})))), Some(Err(Refusal::Altered)));
    assert_eq!(flow::answered(&answer("pnd-9", true, Some(json!({"callbackUrl": cb})))), None, "not ours");
}

/// A host for the scripted server: a fixed random source (RFC 7636's example verifier first), a
/// SHA-256 that knows that verifier, and the grants handed over.
struct Host {
    server: Scripted,
    randoms: RefCell<Vec<Vec<u8>>>,
    grants: RefCell<Vec<Value>>,
}

const RFC7636_VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const RFC7636_CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

impl SourceTransport for Host {
    fn send<'a>(&'a self, req: &'a SourceRequest) -> LocalBoxFuture<'a, crate::error::Result<SourceResponse>> {
        self.server.send(req)
    }
    fn random(&self, n: usize) -> Option<Vec<u8>> {
        let mut r = self.randoms.borrow_mut();
        (!r.is_empty()).then(|| r.remove(0)).filter(|b| b.len() == n)
    }
    fn sha256<'a>(&'a self, data: &'a [u8]) -> LocalBoxFuture<'a, Option<Vec<u8>>> {
        Box::pin(async move { (data == RFC7636_VERIFIER.as_bytes()).then(|| b64url_decode(RFC7636_CHALLENGE).unwrap()) })
    }
    fn grant<'a>(&'a self, grant: &'a Value) -> LocalBoxFuture<'a, crate::error::Result<()>> {
        self.grants.borrow_mut().push(grant.clone());
        Box::pin(async { Ok(()) })
    }
}

fn host_client(oauth: Value, replies: Vec<R>) -> McpClient<Host> {
    let opts = McpOptions::from_json(&json!({"server": "s", "url": "https://mcp.test/api/mcp", "oauth": oauth})).unwrap();
    let verifier = b64url_decode(RFC7636_VERIFIER).unwrap();
    let server = Scripted { replies: RefCell::new(replies), ..Default::default() };
    let c = McpClient::new(opts, Host { server, randoms: RefCell::new(vec![verifier, vec![7; 16]]), grants: RefCell::default() });
    // A stateless server: every call is one POST.
    c.remember(Some(crate::sources::mcp::stateless::REVISION.into()));
    c
}

fn not_found() -> R {
    R(404, "text/plain", None, None, vec!["no".into()])
}

fn as_doc(extra: Value) -> Value {
    let mut d = json!({"issuer": "https://auth.test/t", "authorization_endpoint": "https://auth.test/t/authorize",
        "token_endpoint": "https://auth.test/t/token", "code_challenge_methods_supported": ["S256"],
        "authorization_response_iss_parameter_supported": true, "client_id_metadata_document_supported": true});
    d.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    d
}

const CLIENT: &str = "https://app.test/oauth/client.json";

fn oauth() -> Value {
    json!({"redirectUri": "https://ext.chromiumapp.org/cb", "clientMetadataUrl": CLIENT})
}

#[test]
fn a_challenge_becomes_a_ready_authorization_url_after_discovery_in_order() {
    let prm = json!({"resource": "https://mcp.test/api/mcp", "authorization_servers": ["javascript:alert(1)", "https://auth.test/t"],
                     "scopes_supported": ["mcp:tools"]});
    let c = host_client(
        oauth(),
        vec![
            R(401, "", None, Some("Bearer error=\"invalid_token\""), vec![]),
            not_found(),                                                   // PRM with path insertion
            json_reply(prm),                                               // PRM at the root
            not_found(),                                                   // RFC 8414 with path insertion
            json_reply(as_doc(json!({"issuer": "https://auth.test/t/"}))), // OIDC: another issuer, not used
            json_reply(as_doc(json!({}))),                                 // OIDC path appending
        ],
    );
    let r = block_on(c.call("t", json!({}), None, &ids()));
    let urls = c.transport.server.urls.borrow().clone();
    assert_eq!(
        &urls[1..],
        [
            "https://mcp.test/.well-known/oauth-protected-resource/api/mcp",
            "https://mcp.test/.well-known/oauth-protected-resource",
            "https://auth.test/.well-known/oauth-authorization-server/t",
            "https://auth.test/.well-known/openid-configuration/t",
            "https://auth.test/t/.well-known/openid-configuration",
        ]
    );
    for (m, h, _) in c.transport.server.seen.borrow()[1..].iter() {
        assert_eq!((m.as_str(), header(h, "authorization")), ("GET", None));
    }
    let ToolOutcome::Suspend(req) = ToolOutcome::from_result(r) else { panic!("not a suspension") };
    let state = "BwcHBwcHBwcHBwcHBwcHBw";
    assert_eq!(
        req.url.as_deref(),
        Some(
            [
                "https://auth.test/t/authorize?response_type=code&client_id=https%3A%2F%2Fapp.test%2Foauth%2Fclient.json",
                "&redirect_uri=https%3A%2F%2Fext.chromiumapp.org%2Fcb&scope=mcp%3Atools",
                "&resource=https%3A%2F%2Fmcp.test%2Fapi%2Fmcp&state=",
                state,
                "&code_challenge=",
                RFC7636_CHALLENGE,
                "&code_challenge_method=S256",
            ]
            .concat()
            .as_str()
        )
    );
    assert_eq!(
        Value::Object(req.data.clone().unwrap()),
        json!({"server": "s", "serverUrl": "https://mcp.test/api/mcp",
               "resourceMetadata": "https://mcp.test/.well-known/oauth-protected-resource",
               "authorizationServer": "https://auth.test/t", "resource": "https://mcp.test/api/mcp",
               "scopesSupported": ["mcp:tools"], "issuer": "https://auth.test/t",
               "authorizationEndpoint": "https://auth.test/t/authorize", "tokenEndpoint": "https://auth.test/t/token",
               "clientIdMetadataDocumentSupported": true, "scope": "mcp:tools", "clientId": CLIENT,
               "clientIdMetadataDocument": true, "redirectUri": "https://ext.chromiumapp.org/cb", "state": state,
               "codeChallengeMethod": "S256"})
    );
    let text = req.to_value().to_string();
    assert!(!text.contains(RFC7636_VERIFIER), "the verifier is not in plain sight (only in the id's record)");
    let p = Pending::from_id(&req.id).unwrap().unwrap();
    assert_eq!((p.code_verifier.as_str(), p.state.as_str(), p.iss_required), (RFC7636_VERIFIER, state, true));

    // the answer: checked, the code handed to the host, the call made again
    let cb = ["https://ext.chromiumapp.org/cb?code=AC&state=", state, "&iss=https%3A%2F%2Fauth.test%2Ft"].concat();
    c.transport.server.replies.borrow_mut().push(ok(1, json!({"content": [{"type": "text", "text": "done"}]})));
    let answer = Answer { id: req.id.clone(), ok: true, data: json!({"callbackUrl": cb}).as_object().cloned(), reason: None };
    let r = block_on(c.call("t", json!({}), Some(&answer), &ids()));
    assert_eq!((r.output.as_str(), r.is_error), ("done", false));
    let grants = c.transport.grants.borrow();
    assert_eq!(grants.len(), 1);
    assert_eq!((grants[0]["code"].as_str(), grants[0]["codeVerifier"].as_str()), (Some("AC"), Some(RFC7636_VERIFIER)));
    assert!(!r.to_value().to_string().contains("AC\""), "the code is not in the result");
}

#[test]
fn a_refused_answer_ends_the_call_without_reaching_the_server_or_the_host() {
    let p = pending(true);
    let c = host_client(oauth(), vec![]);
    let cb = "https://ext.chromiumapp.org/cb?code=C&state=S-1&iss=https%3A%2F%2Fevil.test";
    let answer = Answer { id: p.id("pnd-1"), ok: true, data: json!({"callbackUrl": cb}).as_object().cloned(), reason: None };
    let r = block_on(c.call("t", json!({}), Some(&answer), &ids()));
    assert_eq!(
        (r.output.as_str(), r.is_error),
        ("MCP server s: the authorization response's iss is not the authorization server the request went to (RFC 9207)", true)
    );
    assert!(c.transport.server.seen.borrow().is_empty() && c.transport.grants.borrow().is_empty());
}

#[test]
fn without_pkce_or_a_client_id_there_is_no_url_and_data_says_why() {
    let www = Some(r#"Bearer resource_metadata="https://mcp.test/prm", error="insufficient_scope", scope="files:write""#);
    let prm = json!({"resource": "https://mcp.test/api/mcp", "authorization_servers": ["https://auth.test/t"]});
    let run = |oauth: Value, doc: Value| {
        let c = host_client(oauth, vec![R(403, "", None, www, vec![]), json_reply(prm.clone()), json_reply(doc)]);
        let ToolOutcome::Suspend(req) = ToolOutcome::from_result(block_on(c.call("t", json!({}), None, &ids()))) else { panic!() };
        assert_eq!(c.transport.server.urls.borrow()[1], "https://mcp.test/prm", "the challenge's metadata first");
        req
    };
    let req = run(oauth(), as_doc(json!({"code_challenge_methods_supported": ["plain"]})));
    assert_eq!(req.url, None);
    let data = req.data.unwrap();
    assert_eq!(data["problem"]["code"], "pkce_unsupported");
    assert_eq!(data["scope"], "files:write");
    assert!(!req.id.contains(flow::MARK) && data.get("state").is_none());
    let req = run(oauth(), as_doc(json!({"client_id_metadata_document_supported": false})));
    assert_eq!((req.url, req.data.unwrap()["problem"]["code"].clone()), (None, json!("no_client_id")));
    // a pre-registered id works where the server does not take metadata documents; scope from the 403
    let req = run(
        json!({"redirectUri": "http://127.0.0.1:7/cb", "clientId": "pre"}),
        as_doc(json!({"client_id_metadata_document_supported": false})),
    );
    let url = req.url.unwrap();
    assert!(url.contains("&client_id=pre&") && url.contains("&scope=files%3Awrite&"), "{url}");
}

#[test]
fn a_javascript_authorization_server_or_metadata_url_is_never_offered() {
    let www = Some(r#"Bearer resource_metadata="javascript:alert(1)""#);
    let prm = json!({"authorization_servers": ["javascript:alert(document.cookie)"]});
    let c = crate::sources::mcp::tests::client(vec![R(401, "", None, www, vec![]), not_found(), json_reply(prm)]);
    let ToolOutcome::Suspend(req) = ToolOutcome::from_result(block_on(c.call("t", json!({}), None, &ids()))) else { panic!() };
    assert_eq!(c.transport.urls.borrow()[1], "https://mcp.example/.well-known/oauth-protected-resource/mcp", "the header's URL is ignored");
    assert_eq!(req.url.as_deref(), Some("https://mcp.example/.well-known/oauth-protected-resource"));
    let data = req.data.unwrap();
    assert!(data.get("authorizationServer").is_none());
    assert!(!Value::Object(data).to_string().contains("javascript"));
    // metadata for another resource is not believed
    let prm = json!({"resource": "https://evil.test/", "authorization_servers": ["https://auth.evil.test"]});
    let c = crate::sources::mcp::tests::client(vec![R(401, "", None, None, vec![]), json_reply(prm)]);
    let ToolOutcome::Suspend(req) = ToolOutcome::from_result(block_on(c.call("t", json!({}), None, &ids()))) else { panic!() };
    assert!(req.data.unwrap().get("authorizationServer").is_none());
}
