//! The MCP entry's part of an authorization request (the flow itself is `crate::sources::mcp::auth`):
//! the host's crypto for PKCE and `state` (WebCrypto, in src/wasm/mcp_auth.js, rather than a
//! hash compiled into the wasm), the hand-over of a checked code to the `token` callback as its
//! `grant`, and `authorizationGrant` for a host that answers a request outside the loop (a
//! listing that needed authorization). A token never comes back into the wasm.

use super::host::Host;
use super::{js, json_of};
use crate::edge::{await_js, js_error};
use crate::error::{Error, Result};
use crate::json;
use crate::sources::mcp::auth::flow::{self, Answered};
use crate::suspend::Answer;
use futures_util::future::LocalBoxFuture;
use js_sys::{Promise, Reflect, Uint8Array};
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/mcp_auth.js")]
extern "C" {
    #[wasm_bindgen(js_name = mcpRandom)]
    fn mcp_random(n: u32) -> JsValue;
    #[wasm_bindgen(js_name = mcpSha256)]
    fn mcp_sha256(text: &str) -> Promise;
    #[wasm_bindgen(js_name = mcpGrant)]
    fn mcp_grant(token: &JsValue, who: &str, grant: &str, signal: &JsValue) -> Promise;
}

fn bytes(v: JsValue) -> Option<Vec<u8>> {
    v.dyn_into::<Uint8Array>().ok().map(|a| a.to_vec())
}

pub(super) fn random(n: usize) -> Option<Vec<u8>> {
    bytes(mcp_random(n as u32))
}

pub(super) fn sha256(data: &[u8]) -> LocalBoxFuture<'static, Option<Vec<u8>>> {
    // What is hashed is a PKCE verifier: base64url text.
    let p = core::str::from_utf8(data).ok().map(mcp_sha256);
    Box::pin(async move { bytes(await_js(&p?.into()).await.ok()?) })
}

/// The host's `token({ server, url, grant })`, under `signal` (the operation's and the request
/// deadline as one, as for `token` itself): the host exchanges the code and keeps the tokens; what it
/// returns stays in JS. A throw is an error naming the server, as for `token` itself.
pub(super) async fn grant(h: &Host, signal: JsValue, grant: &Value) -> Result<()> {
    let p = mcp_grant(&h.token, &h.who, &json::to_text(grant), &signal);
    await_js(&p).await.map(|_| ()).map_err(|e| h.failed(&e, &signal))
}

/// `authorizationGrant(request, callbackUrl)`: checks the URL the browser came back to against an
/// `authorization` request with a ready URL (from `authRequired` of a listing, or a suspension
/// the host handles itself) and gives the `grant` for `exchangeCode`. A refused response throws
/// a `bad_input` error whose `refusal` names the check (`iss_mismatch`, `state_mismatch`, ...).
#[wasm_bindgen(js_name = authorizationGrant)]
pub fn authorization_grant(request: JsValue, callback_url: JsValue) -> std::result::Result<JsValue, JsValue> {
    let what = "authorizationGrant(request, callbackUrl)";
    let id = json_of(&request).get("id").and_then(Value::as_str).map(str::to_string).unwrap_or_default();
    let mut data = Map::new();
    data.insert("callbackUrl".into(), json_of(&callback_url));
    let answer = Answer { id, ok: true, data: Some(data), ..Answer::default() };
    let refusal = |code: &str, message: &str| {
        let e = js_error(Error::bad_input(format!("{what}: {message}")));
        let _ = Reflect::set(&e, &"refusal".into(), &code.into());
        e
    };
    match flow::answered(&answer) {
        Some(Ok(Answered::Grant(g))) => Ok(js(&g)),
        Some(Err(r)) => Err(refusal(r.code(), &r.message())),
        Some(Ok(Answered::Plain)) | None => {
            Err(js_error(Error::bad_input(format!("{what}: request is not an authorization request with a ready URL"))))
        }
    }
}
