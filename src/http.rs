//! The byte stream every HTTP body is read through, below both the driver (a model call's
//! streamed reply) and the tool sources (an MCP, A2A or HTTP-tool reply): a leaf, so neither
//! reaches into the other for it.

use crate::error::Result;
use crate::prelude::*;
use futures_util::future::LocalBoxFuture;

/// A response body read chunk by chunk. `None` is the end of the body. Dropping it before its
/// end cancels the read.
pub trait ByteStream {
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>>>;
}

/// A body that is already whole: one chunk.
pub struct WholeBody(pub Option<Vec<u8>>);

impl ByteStream for WholeBody {
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Result<Option<Vec<u8>>>> {
        let chunk = self.0.take();
        Box::pin(async move { Ok(chunk) })
    }
}
