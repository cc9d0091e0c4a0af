//! Discovery as MCP's authorization prescribes it, over the session's transport (plain GETs: no
//! token, none of the host's headers): the protected-resource metadata (the challenge's
//! `resource_metadata`, else the well-known locations in order), the authorization server it
//! names, that server's metadata (RFC 8414 and OpenID Connect Discovery, in order), and, for a
//! host that configured an OAuth client, the PKCE pair and `state` from the host's crypto.

use super::flow::{self, Answered, AuthParams, OAuthClient, Pending, Problem};
use super::{urls, Challenge, Flow, Found};
use crate::sources::mcp::options::McpOptions;
use crate::sources::mcp::stateless::b64url;
use crate::sources::transport::{SourceRequest, SourceTransport};
use crate::suspend::{Answer, IdGen, Request};
use crate::tool::ToolResult;
use serde_json::Value;

/// The largest metadata document read; a longer one counts as unreadable.
pub const MAX_DOCUMENT: usize = 64 * 1024;

/// The suspension for challenge `c` of the server `o` names, reached over `t`, with its id. The
/// id of a request with a ready authorization URL carries the pending record ([`Pending`]) its
/// answer is checked against.
pub async fn authorization<T: SourceTransport>(t: &T, o: &McpOptions, c: &Challenge, ids: &IdGen) -> Request {
    let mut found = discover(t, &o.url, c).await;
    let pending = match &o.oauth {
        Some(oc) => prepare(t, oc, &o.url, c, &mut found).await,
        None => None,
    };
    let mut req = super::request(&o.server, &o.url, &found, c, o.oauth.is_some());
    let unique = ids.next();
    req.id = match pending {
        Some(p) => p.id(&unique),
        None => unique,
    };
    req
}

/// An answer to an authorization request built here: checked, and its code handed to the host
/// ([`SourceTransport::grant`]). `Some` is the call's result when it must end here (a refused
/// response, a failing hand-over); `None` lets the call go on.
pub async fn hand_over<T: SourceTransport>(t: &T, server: &str, answer: Option<&Answer>) -> Option<ToolResult> {
    let message = match answer.and_then(flow::answered)? {
        Ok(Answered::Plain) => return None,
        Ok(Answered::Grant(g)) => t.grant(&g).await.err()?.message,
        Err(r) => format!("MCP server {server}: {}", r.message()),
    };
    Some(crate::sources::mcp::result::failed(server, message))
}

/// The metadata documents, as far as they can be read and trusted.
pub async fn discover<T: SourceTransport>(t: &T, server_url: &str, c: &Challenge) -> Found {
    let named = c.resource_metadata.as_deref().filter(|u| urls::fetchable(u, server_url));
    let candidates = match named {
        Some(u) => vec![u.to_string()],
        None => urls::resource_metadata_urls(server_url),
    };
    let mut found = Found { metadata_url: candidates.first().cloned().unwrap_or_default(), ..Found::default() };
    for u in candidates {
        // Metadata naming another resource does not speak for this server (RFC 9728 section 3.3).
        if let Some(doc) = get_json(t, &u).await.filter(|d| covers(d, server_url)) {
            found.metadata_url = u;
            found.prm = Some(doc);
            break;
        }
    }
    let Some(doc) = &found.prm else {
        found.problem = Some(Problem::NoResourceMetadata);
        return found;
    };
    let listed = doc.get("authorization_servers").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let usable = |u: &&str| urls::fetchable(u, server_url) && urls::parse(u).is_some_and(|p| p.query.is_none());
    found.auth_server = listed.iter().filter_map(Value::as_str).find(usable).map(str::to_string);
    let Some(issuer) = found.auth_server.clone() else {
        found.problem = Some(Problem::NoAuthorizationServer);
        return found;
    };
    for u in urls::authorization_server_metadata_urls(&issuer) {
        if let Some(m) = get_json(t, &u).await.and_then(|d| flow::read_as_metadata(&d, &issuer, server_url)) {
            found.meta = Some(m);
            break;
        }
    }
    found.problem = match &found.meta {
        None => Some(Problem::NoServerMetadata),
        Some(m) if !m.s256 => Some(Problem::PkceUnsupported),
        Some(_) => None,
    };
    found
}

/// `resource` of protected-resource metadata, when present, covers the server.
fn covers(doc: &Value, server_url: &str) -> bool {
    match doc.get("resource") {
        None | Some(Value::Null) => true,
        Some(r) => r.as_str().is_some_and(|r| urls::resource_covers(r, server_url)),
    }
}

/// Builds the authorization request for the host's client (`found.flow`) and the record its
/// answer is checked against; on the way out, `found.problem` says why not.
async fn prepare<T: SourceTransport>(t: &T, oc: &OAuthClient, server_url: &str, c: &Challenge, found: &mut Found) -> Option<Pending> {
    if found.problem.is_some() {
        return None;
    }
    let meta = found.meta.clone()?;
    let (client_id, cimd) = match flow::client_id(oc, &meta) {
        Ok(x) => x,
        Err(p) => {
            found.problem = Some(p);
            return None;
        }
    };
    let verifier = t.random(32).filter(|b| b.len() == 32).map(|b| b64url(&b));
    let state = t.random(16).filter(|b| b.len() == 16).map(|b| b64url(&b));
    let hash = match &verifier {
        Some(v) => t.sha256(v.as_bytes()).await.filter(|h| h.len() == 32),
        None => None,
    };
    let (Some(verifier), Some(state), Some(hash)) = (verifier, state, hash) else {
        found.problem = Some(Problem::NoCrypto);
        return None;
    };
    // The resource the metadata names for this server (checked by `covers`), else the
    // server's canonical URI (RFC 8707, as MCP defines it).
    let named = found.prm.as_ref().and_then(|d| d.get("resource")).and_then(Value::as_str).map(str::to_string);
    let resource = named.or_else(|| urls::canonical(server_url))?;
    let scope = flow::scope(c.scope.as_deref(), found.prm.as_ref());
    let challenge = b64url(&hash);
    let params = AuthParams {
        client_id: &client_id,
        redirect_uri: &oc.redirect_uri,
        scope: scope.as_deref(),
        resource: &resource,
        state: &state,
        challenge: &challenge,
    };
    let url = flow::authorization_url(&meta.authorization_endpoint, &params);
    found.flow = Some(Flow {
        url,
        client_id: client_id.clone(),
        cimd,
        redirect_uri: oc.redirect_uri.clone(),
        scope,
        resource: resource.clone(),
        state: state.clone(),
    });
    Some(Pending {
        state,
        issuer: meta.issuer,
        iss_required: meta.iss_supported,
        token_endpoint: meta.token_endpoint,
        client_id,
        redirect_uri: oc.redirect_uri.clone(),
        resource,
        code_verifier: verifier,
    })
}

/// A JSON object from a plain GET, or `None` (any failure, a non-2xx status, too large).
async fn get_json<T: SourceTransport>(t: &T, url: &str) -> Option<Value> {
    let req = SourceRequest {
        method: "GET",
        url: url.to_string(),
        headers: vec![("accept".into(), "application/json".into())],
        body: None,
        stream: false,
    };
    let mut res = t.send(&req).await.ok()?;
    if !(200..300).contains(&res.status) {
        return None;
    }
    let mut bytes = Vec::new();
    while let Some(chunk) = res.body.next_chunk().await.ok()? {
        bytes.extend_from_slice(&chunk);
        if bytes.len() > MAX_DOCUMENT {
            return None;
        }
    }
    crate::sources::text::parse(&bytes).filter(Value::is_object)
}
