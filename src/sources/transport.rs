//! The host's side of a tool source's exchange: the request a source makes, the response it
//! reads, and the [`SourceTransport`] seam the MCP entry's edge implements once for every source
//! (HTTP, randomness, SHA-256, the token hand-over); native tests plug in a scripted server.
//! Its own file, below the sources (MCP sessions and their authorization, A2A, `httpTool`).

use crate::error::{Code, Error, Result};
use crate::http::ByteStream;
use futures_util::future::LocalBoxFuture;
use serde_json::Value;

/// One HTTP request of a source, as the edge hands it to the host's `fetch`.
pub struct SourceRequest {
    pub method: &'static str,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<String>,
    /// A long-lived event stream (the legacy transport's GET): no per-request deadline, and not
    /// tied to the call that happened to open it.
    pub stream: bool,
}

/// What the host's `fetch` answered: the status, the headers a source reads, and the body as it
/// arrives.
pub struct SourceResponse {
    pub status: u16,
    pub content_type: String,
    pub session_id: Option<String>,
    pub www_authenticate: Option<String>,
    pub body: Box<dyn ByteStream>,
}

/// The host's HTTP. Dropping a response's body before its end cancels it. The other methods are
/// the host's part of an MCP authorization request (`mcp::auth`); without them there is no ready
/// URL.
pub trait SourceTransport {
    fn send<'a>(&'a self, req: &'a SourceRequest) -> LocalBoxFuture<'a, Result<SourceResponse>>;

    /// `n` bytes from the host's secure random source (`crypto.getRandomValues`): PKCE's
    /// verifier and an authorization request's `state`.
    fn random(&self, _n: usize) -> Option<Vec<u8>> {
        None
    }

    /// SHA-256 by the host (WebCrypto's `crypto.subtle.digest`), for PKCE's S256 challenge.
    fn sha256<'a>(&'a self, _data: &'a [u8]) -> LocalBoxFuture<'a, Option<Vec<u8>>> {
        Box::pin(async { None })
    }

    /// Hands the host a checked authorization code with what its token request needs (the
    /// `token` callback's `grant`): the host exchanges it and keeps the tokens.
    fn grant<'a>(&'a self, _grant: &'a Value) -> LocalBoxFuture<'a, Result<()>> {
        Box::pin(async { Err(Error::new(Code::HostCallback, "no token callback to hand the authorization code to")) })
    }
}
