//! The authorization code flow with PKCE as MCP's authorization (revision 2026-07-28) asks of a
//! client, without the I/O: the client the host configured and which client id to offer, an
//! authorization server's metadata and what it must support, the authorization URL, the record
//! a suspension carries to its answer, and the checks of the authorization response before its
//! code goes anywhere. The token exchange is the host's: the code leaves here as a `grant`.

use super::urls;
use crate::json;
use crate::sources::mcp::stateless::{b64url, b64url_decode};
use crate::suspend::Answer;
use serde_json::Value;

/// Separates the unique part of an authorization suspension's id from its pending record.
pub const MARK: &str = "~mcp-auth.";
/// The longest callback URL read, and the longest authorization code taken from it.
pub const MAX_CALLBACK: usize = 16 * 1024;
pub const MAX_CODE: usize = 4096;
/// The longest scope requested, and the longest client id configured.
pub const MAX_SCOPE: usize = 1024;
const MAX_CLIENT_ID: usize = 1024;

/// The host's OAuth client (`oauth` in the options): where the browser comes back to and which
/// client ids it may offer. A pre-registered `clientId` is tied to `issuer` when that is given.
#[derive(Clone, Debug, PartialEq)]
pub struct OAuthClient {
    pub redirect_uri: String,
    pub client_id: Option<String>,
    /// A Client ID Metadata Document's https URL, offered where the server supports them.
    pub client_metadata_url: Option<String>,
    pub issuer: Option<String>,
}

impl OAuthClient {
    /// `oauth` of `what` (absent or `null`: no client, the host runs the flow itself).
    pub fn from_json(v: Option<&Value>, what: &str) -> Result<Option<OAuthClient>, String> {
        let o = match v {
            None | Some(Value::Null) => return Ok(None),
            Some(Value::Object(o)) => o,
            Some(_) => return Err(format!("{what}.oauth must be an object")),
        };
        let w = format!("{what}.oauth");
        let field = |k: &str| json::opt_str(o, k, &w).map(|s| s.filter(|s| !s.is_empty()));
        let must = |k: &str, be: &str| format!("{w}.{k} must be {be}");
        let redirect_uri = field("redirectUri")?.filter(|u| urls::parse(u).is_some_and(|p| p.fragment.is_none()) && urls::visitable(u));
        let redirect_uri =
            redirect_uri.ok_or_else(|| must("redirectUri", "an https URL (or http on a loopback host) without a fragment"))?;
        let client_id = field("clientId")?;
        if client_id.as_ref().is_some_and(|c| c.len() > MAX_CLIENT_ID || c.bytes().any(|b| b < b' ' || b == 0x7f)) {
            return Err(must("clientId", "at most 1024 characters, no control characters"));
        }
        let client_metadata_url = field("clientMetadataUrl")?;
        let cimd_ok = |u: &String| urls::parse(u).is_some_and(|p| p.https && p.path.len() > 1 && p.fragment.is_none());
        if client_metadata_url.as_ref().is_some_and(|u| !cimd_ok(u)) {
            return Err(must("clientMetadataUrl", "an https URL with a path (a Client ID Metadata Document)"));
        }
        let issuer = field("issuer")?;
        if issuer.as_ref().is_some_and(|u| !urls::visitable(u)) {
            return Err(must("issuer", "an https URL"));
        }
        if client_id.is_none() && client_metadata_url.is_none() {
            return Err(format!("{w} needs clientId or clientMetadataUrl"));
        }
        Ok(Some(OAuthClient { redirect_uri, client_id, client_metadata_url, issuer }))
    }

    pub fn to_value(&self) -> Value {
        let mut f = vec![("redirectUri", self.redirect_uri.as_str().into())];
        let opt = [("clientId", &self.client_id), ("clientMetadataUrl", &self.client_metadata_url), ("issuer", &self.issuer)];
        for (k, v) in opt {
            if let Some(v) = v {
                f.push((k, v.as_str().into()));
            }
        }
        json::obj(f)
    }
}

/// An authorization server's metadata, as far as the flow uses it.
#[derive(Clone, Debug, PartialEq)]
pub struct AsMetadata {
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    /// `code_challenge_methods_supported` holds `S256`.
    pub s256: bool,
    /// `authorization_response_iss_parameter_supported` (RFC 9207): a response without `iss`
    /// is then refused.
    pub iss_supported: bool,
    /// `client_id_metadata_document_supported`.
    pub cimd: bool,
}

/// Reads a metadata document fetched for `issuer`: it is used only when its `issuer` is that
/// string exactly (RFC 8414 section 3.3, OpenID Connect Discovery 4.3) and its endpoints are
/// URLs the flow may use for `server_url`'s sake.
pub fn read_as_metadata(doc: &Value, issuer: &str, server_url: &str) -> Option<AsMetadata> {
    if doc.get("issuer").and_then(Value::as_str) != Some(issuer) {
        return None;
    }
    let endpoint = |k: &str| doc.get(k).and_then(Value::as_str).filter(|u| urls::fetchable(u, server_url)).map(str::to_string);
    let has = |k: &str, v: &str| doc.get(k).and_then(Value::as_array).is_some_and(|a| a.iter().any(|m| m.as_str() == Some(v)));
    let yes = |k: &str| doc.get(k).and_then(Value::as_bool) == Some(true);
    Some(AsMetadata {
        issuer: issuer.to_string(),
        authorization_endpoint: endpoint("authorization_endpoint")?,
        token_endpoint: endpoint("token_endpoint")?,
        s256: has("code_challenge_methods_supported", "S256"),
        iss_supported: yes("authorization_response_iss_parameter_supported"),
        cimd: yes("client_id_metadata_document_supported"),
    })
}

/// Why no authorization URL was built (`data.problem` of the suspension: `{ code, message }`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Problem {
    NoResourceMetadata,
    NoAuthorizationServer,
    NoServerMetadata,
    PkceUnsupported,
    NoClientId,
    ClientIdIssuer,
    NoCrypto,
}

impl Problem {
    pub fn code(self) -> &'static str {
        match self {
            Problem::NoResourceMetadata => "no_resource_metadata",
            Problem::NoAuthorizationServer => "no_authorization_server",
            Problem::NoServerMetadata => "no_authorization_server_metadata",
            Problem::PkceUnsupported => "pkce_unsupported",
            Problem::NoClientId => "no_client_id",
            Problem::ClientIdIssuer => "client_id_issuer_mismatch",
            Problem::NoCrypto => "no_crypto",
        }
    }

    pub fn message(self) -> &'static str {
        match self {
            Problem::NoResourceMetadata => "no protected-resource metadata for this server could be read",
            Problem::NoAuthorizationServer => "the protected-resource metadata names no usable authorization server (https only)",
            Problem::NoServerMetadata => "no valid metadata of the authorization server could be read (RFC 8414 or OpenID Connect Discovery)",
            Problem::PkceUnsupported => "the authorization server does not list S256 in code_challenge_methods_supported: PKCE is required, so the package does not proceed",
            Problem::NoClientId => "the authorization server does not support Client ID Metadata Documents and no oauth.clientId is configured (dynamic client registration is deprecated and not done)",
            Problem::ClientIdIssuer => "oauth.clientId is registered with another authorization server (oauth.issuer)",
            Problem::NoCrypto => "the host has no crypto.getRandomValues or crypto.subtle for PKCE",
        }
    }

    pub fn to_value(self) -> Value {
        json::obj(vec![("code", self.code().into()), ("message", self.message().into())])
    }
}

/// The client id to offer `meta`'s server, in the priority MCP gives: a pre-registered id (for
/// its issuer), else the Client ID Metadata Document where the server supports them. The
/// second value says it is a metadata document URL.
pub fn client_id(c: &OAuthClient, meta: &AsMetadata) -> Result<(String, bool), Problem> {
    let cimd = c.client_metadata_url.as_ref().filter(|_| meta.cimd);
    match &c.client_id {
        Some(id) if c.issuer.as_ref().map_or(true, |i| *i == meta.issuer) => Ok((id.clone(), false)),
        Some(_) => cimd.map(|u| (u.clone(), true)).ok_or(Problem::ClientIdIssuer),
        None => cimd.map(|u| (u.clone(), true)).ok_or(Problem::NoClientId),
    }
}

/// The scope to request: the challenge's (authoritative for this operation), else every scope
/// the resource metadata lists; none when neither says (or the result is unreasonably long).
pub fn scope(challenge: Option<&str>, prm: Option<&Value>) -> Option<String> {
    let s = match challenge.map(str::trim).filter(|s| !s.is_empty()) {
        Some(s) => s.to_string(),
        None => {
            let list = prm.and_then(|d| d.get("scopes_supported")).and_then(Value::as_array)?;
            let names: Vec<&str> = list.iter().filter_map(Value::as_str).filter(|s| !s.is_empty()).collect();
            names.join(" ")
        }
    };
    Some(s).filter(|s| !s.is_empty() && s.len() <= MAX_SCOPE)
}

/// What the authorization URL carries besides the server's endpoint.
pub struct AuthParams<'a> {
    pub client_id: &'a str,
    pub redirect_uri: &'a str,
    pub scope: Option<&'a str>,
    pub resource: &'a str,
    pub state: &'a str,
    pub challenge: &'a str,
}

/// The authorization request URL (code flow, PKCE S256, RFC 8707 `resource`), ready for a
/// browser or `chrome.identity.launchWebAuthFlow`.
pub fn authorization_url(endpoint: &str, p: &AuthParams) -> String {
    let mut out = endpoint.to_string();
    out.push(if urls::parse(endpoint).is_some_and(|u| u.query.is_some()) { '&' } else { '?' });
    let mut pairs = vec![("response_type", "code"), ("client_id", p.client_id), ("redirect_uri", p.redirect_uri)];
    if let Some(s) = p.scope {
        pairs.push(("scope", s));
    }
    pairs.extend([("resource", p.resource), ("state", p.state), ("code_challenge", p.challenge), ("code_challenge_method", "S256")]);
    for (i, (k, v)) in pairs.into_iter().enumerate() {
        if i > 0 {
            out.push('&');
        }
        out.push_str(k);
        out.push('=');
        urls::encode_into(&mut out, v);
    }
    out
}

/// The per-request record of one authorization request (what MCP asks a client to keep with the
/// PKCE verifier): carried in the suspension's id, so it waits in the durable state with the
/// request and comes back with the answer, and never sits in `data`.
#[derive(Clone, Debug, PartialEq)]
pub struct Pending {
    pub state: String,
    pub issuer: String,
    pub iss_required: bool,
    pub token_endpoint: String,
    pub client_id: String,
    pub redirect_uri: String,
    pub resource: String,
    pub code_verifier: String,
}

impl Pending {
    /// The suspension id: `unique`, then [`MARK`] and the record as base64url JSON (an array,
    /// in field order: the shortest id and the least code).
    pub fn id(&self, unique: &str) -> String {
        let s = |v: &String| Value::String(v.clone());
        let v = Value::Array(vec![
            s(&self.state),
            s(&self.issuer),
            Value::Bool(self.iss_required),
            s(&self.token_endpoint),
            s(&self.client_id),
            s(&self.redirect_uri),
            s(&self.resource),
            s(&self.code_verifier),
        ]);
        format!("{unique}{MARK}{}", b64url(json::to_text(&v).as_bytes()))
    }

    /// The record an id carries: `None` when the id has no [`MARK`] (not an authorization
    /// request this module built), `Some(None)` when it has one but the record does not read.
    pub fn from_id(id: &str) -> Option<Option<Pending>> {
        let at = crate::small::find(id, MARK)?;
        let v = id.get(at + MARK.len()..).and_then(b64url_decode).and_then(|b| crate::sources::text::parse(&b));
        let a = v.as_ref().and_then(Value::as_array).filter(|a| a.len() == 8);
        let Some(a) = a else { return Some(None) };
        let mut f = a.iter().filter_map(|x| x.as_str().map(str::to_string));
        let iss_required = a[2].as_bool();
        Some((|| {
            Some(Pending {
                state: f.next()?,
                issuer: f.next()?,
                iss_required: iss_required?,
                token_endpoint: f.next()?,
                client_id: f.next()?,
                redirect_uri: f.next()?,
                resource: f.next()?,
                code_verifier: f.next()?,
            })
        })())
    }

    /// What the host needs for the token request (the `token` callback's `grant`).
    pub fn grant(&self, code: String) -> Value {
        json::obj(vec![
            ("tokenEndpoint", self.token_endpoint.as_str().into()),
            ("code", code.into()),
            ("codeVerifier", self.code_verifier.as_str().into()),
            ("redirectUri", self.redirect_uri.as_str().into()),
            ("clientId", self.client_id.as_str().into()),
            ("resource", self.resource.as_str().into()),
            ("issuer", self.issuer.as_str().into()),
        ])
    }
}

/// Why an answer to an authorization request was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    Declined,
    /// The id no longer carries a readable record (changed by hand?).
    Altered,
    NotACallback,
    WrongRedirect,
    /// A response parameter given twice (RFC 6749 forbids it; one of them would be chosen blind).
    Repeated,
    IssMissing,
    IssMismatch,
    StateMissing,
    StateMismatch,
    /// The authorization server's `error` (a code of RFC 6749's charset, else empty).
    Refused(String),
    NoCode,
}

impl Refusal {
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::Declined => "declined",
            Refusal::Altered => "altered",
            Refusal::NotACallback => "not_a_callback",
            Refusal::WrongRedirect => "wrong_redirect",
            Refusal::Repeated => "repeated_parameter",
            Refusal::IssMissing => "iss_missing",
            Refusal::IssMismatch => "iss_mismatch",
            Refusal::StateMissing => "state_missing",
            Refusal::StateMismatch => "state_mismatch",
            Refusal::Refused(_) => "authorization_error",
            Refusal::NoCode => "no_code",
        }
    }

    pub fn message(&self) -> String {
        let m = match self {
            Refusal::Declined => "the authorization was declined",
            Refusal::Altered => "the answer's id does not carry the authorization request it answers (was it changed?)",
            Refusal::NotACallback => "data.callbackUrl must be the URL the browser was redirected to (a string of at most 16 KiB)",
            Refusal::WrongRedirect => "the callback URL is not at the redirect URI of the request",
            Refusal::Repeated => "the authorization response repeats a parameter",
            Refusal::IssMissing => "the authorization response has no iss, which this authorization server promises (RFC 9207)",
            Refusal::IssMismatch => "the authorization response's iss is not the authorization server the request went to (RFC 9207)",
            Refusal::StateMissing => "the authorization response has no state",
            Refusal::StateMismatch => "the authorization response's state is not the request's",
            Refusal::NoCode => "the authorization response has no usable code",
            Refusal::Refused(e) if e.is_empty() => "the authorization server refused",
            Refusal::Refused(e) => return format!("the authorization server refused: {e}"),
        };
        m.to_string()
    }
}

/// What an answer to an authorization request this module built comes to.
#[derive(Debug, PartialEq)]
pub enum Answered {
    /// No `callbackUrl`: the host ran the whole flow (as before) and has the token.
    Plain,
    /// The checked code and what the token request needs.
    Grant(Value),
}

/// `None` when `a` does not answer a request built here (today's suspensions, other kinds).
pub fn answered(a: &Answer) -> Option<Result<Answered, Refusal>> {
    let pending = Pending::from_id(&a.id)?;
    Some((|| {
        if !a.ok {
            return Err(Refusal::Declined);
        }
        let Some(cb) = a.data.as_ref().and_then(|d| d.get("callbackUrl")) else { return Ok(Answered::Plain) };
        let cb = cb.as_str().filter(|c| c.len() <= MAX_CALLBACK).ok_or(Refusal::NotACallback)?;
        let p = pending.ok_or(Refusal::Altered)?;
        let code = check_callback(cb, &p)?;
        Ok(Answered::Grant(p.grant(code)))
    })())
}

/// Checks the authorization response the browser brought back to `p.redirect_uri` and gives its
/// code. The order is RFC 9207's: `iss` first (a mismatch means nothing else in the response is
/// acted on, not even its error), then `state`, then the server's error, then the code.
pub fn check_callback(callback: &str, p: &Pending) -> Result<String, Refusal> {
    if callback.len() > MAX_CALLBACK {
        return Err(Refusal::NotACallback);
    }
    // Where the browser came back to: the URL before its query (the query may be long).
    let base = callback.split(['?', '#']).next().unwrap_or("");
    let at_redirect = match (urls::parse(base), urls::parse(&p.redirect_uri)) {
        (Some(c), Some(r)) => c.https == r.https && c.authority == r.authority && c.path == r.path,
        _ => false,
    };
    if !at_redirect {
        return Err(Refusal::WrongRedirect);
    }
    let query = callback.split('#').next().unwrap_or("").split_once('?').map_or("", |(_, q)| q);
    let params = urls::query_params(query).ok_or(Refusal::NotACallback)?;
    let one = |k: &str| -> Result<Option<&str>, Refusal> {
        let mut it = params.iter().filter(|(n, _)| n == k);
        let first = it.next().map(|(_, v)| v.as_str());
        if it.next().is_some() {
            return Err(Refusal::Repeated);
        }
        Ok(first)
    };
    match one("iss")? {
        Some(iss) if iss != p.issuer => return Err(Refusal::IssMismatch),
        None if p.iss_required => return Err(Refusal::IssMissing),
        _ => {}
    }
    match one("state")? {
        None => return Err(Refusal::StateMissing),
        Some(s) if s != p.state => return Err(Refusal::StateMismatch),
        _ => {}
    }
    if let Some(e) = one("error")? {
        // Only an error code's own charset (RFC 6749 section 4.1.2.1) goes into the message.
        let ok = e.len() <= 64 && e.bytes().all(|b| (0x20..=0x7e).contains(&b) && b != b'"' && b != b'\\');
        return Err(Refusal::Refused(if ok { e.to_string() } else { String::new() }));
    }
    match one("code")? {
        Some(c) if !c.is_empty() && c.len() <= MAX_CODE => Ok(c.to_string()),
        _ => Err(Refusal::NoCode),
    }
}
