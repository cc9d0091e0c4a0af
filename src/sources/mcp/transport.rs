//! The host's side of an MCP exchange: the request the client makes, the response it reads, and
//! the [`McpTransport`] seam the edge implements (HTTP, randomness, SHA-256, the token hand-over).
//! Its own file, below the session and the authorization flow, which both use it.

use crate::driver::ByteStream;
use crate::error::{Code, Error, Result};
use futures_util::future::LocalBoxFuture;
use serde_json::Value;

pub struct McpRequest {
    pub method: &'static str,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<String>,
    /// A long-lived event stream (the legacy transport's GET): no per-request deadline, and not
    /// tied to the call that happened to open it.
    pub stream: bool,
}

pub struct McpResponse {
    pub status: u16,
    pub content_type: String,
    pub session_id: Option<String>,
    pub www_authenticate: Option<String>,
    pub body: Box<dyn ByteStream>,
}

/// The host's HTTP. Dropping a response's body before its end cancels it. The other methods are
/// the host's part of an authorization request (`auth`); without them there is no ready URL.
pub trait McpTransport {
    fn send<'a>(&'a self, req: &'a McpRequest) -> LocalBoxFuture<'a, Result<McpResponse>>;

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
