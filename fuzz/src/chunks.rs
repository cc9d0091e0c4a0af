//! Random chunkings of one byte stream, so the incremental decoders see every kind of boundary:
//! inside a UTF-8 character, between CR and LF, and zero-length chunks.

/// Splits off the first byte of `data` as the chunking seed; the rest is the stream.
pub fn seed_and_body(data: &[u8]) -> Option<(u8, &[u8])> {
    let (&seed, body) = data.split_first()?;
    Some((seed, body))
}

/// Chunks of `body` whose lengths (0..=9, so some are empty) come from a xorshift seeded by
/// `seed`. The chunks concatenate to `body`.
pub fn random(body: &[u8], seed: u8) -> Vec<&[u8]> {
    let mut x = 0x9E37_79B9u32 ^ (u32::from(seed) << 8 | u32::from(seed));
    let mut out = Vec::new();
    let mut rest = body;
    while !rest.is_empty() {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let n = (x % 10) as usize;
        let (a, b) = rest.split_at(n.min(rest.len()));
        out.push(a);
        rest = b;
    }
    out
}

/// One byte at a time with an empty chunk after every byte.
pub fn bytewise(body: &[u8]) -> Vec<&[u8]> {
    body.chunks(1).flat_map(|c| [c, &c[..0]]).collect()
}
