// @ts-check
// How a streamed body is read (`readChunk`), how a whole one is (`readAll`), and how one is
// cancelled.
import { guard } from "./signal.js";

const READ = Symbol();

// The next bytes of a streamed body's reader (a Uint8Array), `undefined` at the end, `null` when
// `read()` gave no `{ done, value }` with bytes, `false` (the reader cancelled) once the body read
// so far is longer than `max` bytes. A throw rejects.
// Reads are gathered here until one holds a line ending (every SSE event ends with one), or the
// body ends: each await of the edge costs several µs whatever it holds, and a network that cuts
// the body into small reads would pay it per read. No complete event waits for more bytes, and
// the bytes of an unfinished line could not be used before its end anyway. At most 8 KB are
// handed on at a time, the rest at once by the next calls: the wasm decodes all it is given
// before its consumer sees the first event.
export function readChunk(r, max, s) {
  return guard(gather(r, max), s);
}

async function gather(r, max) {
  const st = (r[READ] ??= [0]); // bytes read, then what is read and not handed on
  const parts = [];
  let n = 0, x, v = st[1];
  while (!v) {
    if ((x = await r.read())?.done) {
      if (!n) return;
      break;
    }
    if (!((x = x?.value) instanceof Uint8Array)) return null;
    if ((st[0] += x.length) > max) return cancel(r), false;
    parts.push(x);
    n += x.length;
    if (x.includes(10) || x.includes(13)) break;
  }
  v ||= parts[0];
  if (parts[1]) {
    v = new Uint8Array(n);
    n = 0;
    for (const p of parts) v.set(p, n), (n += p.length);
  }
  st[1] = v.length > 8192 && v.subarray(8192);
  return v.subarray(0, 8192);
}

// Every chunk of a body's reader, read to its end here (one await per chunk, none of the edge's):
// the chunks; `false` (the reader cancelled) once they are longer than `max` bytes; `0` when a
// read gave no `{ done, value }` with bytes. A throw rejects; the reads are raced, as one, with
// the run's signal `s`.
export function readAll(r, max, s) {
  return guard(chunks(r, max), s);
}

async function chunks(r, max) {
  const parts = [];
  for (let n = 0, x; !(x = await r.read())?.done; ) {
    const v = x?.value;
    if (!(v instanceof Uint8Array)) return 0;
    if ((n += v.byteLength) > max) return cancel(r), false;
    parts.push(v);
  }
  return parts;
}

// Cancels a body or its reader, whatever it throws or rejects with.
export function cancel(x) {
  try {
    x.cancel().catch(() => {});
  } catch {}
}
