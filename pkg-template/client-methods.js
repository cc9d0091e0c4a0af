// @ts-check
// The methods and getters of `Client`, each one kind of the wasm client's `op` (named in
// api.js's `CLIENT`), and the stand-in a client is until the wasm module has loaded. A streamed
// one gets an EventStream, which the run feeds and its settled promise ends. A method of a freed
// client (or of an object that only has Client's prototype) would meet a null pointer in the
// glue, whose error has no code: it throws `bad_input` instead. A second `free()` does nothing.
// Defining them is this module's side effect; createClient imports `lazyClient` from here, so
// whoever makes a client has them.

import { Client } from "./toolnexus_wasm.js";
// scripts/build.sh points this import at the edge's snippet (its path holds a hash).
import { EventStream, fail } from "./host.js";
import { whenLoaded } from "./loader.js";
import { CLIENT, OP } from "./api.js";
import { signedOp, signerOf } from "./signing.js";
import { unbound } from "./toolkit.js";
import { metricsOf } from "./metrics.js";

export { Client };

// A client made before the wasm module loaded (at a service worker's top level, say): an object
// with Client's methods that becomes a real client at the first call that needs one, when the
// module has loaded and the options are checked; until then `style`, `model` and
// `conversationStore()` answer from the options. A refusal of the options rejects every call.
const lazy = new WeakMap();

/** A client whose real one `make` makes once the module is in; `store` is what it will keep conversations in. */
export function lazyClient(make, options, store) {
  const c = Object.create(Client.prototype);
  let style, model;
  try {
    ({ style, model } = options);
  } catch {}
  lazy.set(c, { make, store, style, model, client: undefined, real: undefined, freed: false });
  return c;
}

// The real client of a lazy one, once the module is in. A failed load (or a refusal of the
// options) is not kept: the next call tries again.
function realOf(l) {
  if (l.real) return l.real;
  const p = (l.real = whenLoaded().then(() => (l.client ??= l.make())));
  p.catch(() => l.real === p && (l.real = undefined));
  return p;
}

const { op: clientOp, free } = Client.prototype;
delete Client.prototype.op;
CLIENT.forEach((k, kind) => {
  const streamed = /stream/i.test(k);
  const getter = k == "style" || k == "model";
  /** @this {any} a Client, or whatever a caller bound */
  function f(a, b) {
    let self = this;
    const l = lazy.get(self);
    if (l?.freed) {
      if (k == "free") return;
      throw fail("bad_input", `Client.${k}: the client was freed`);
    }
    if (l && !l.client) {
      if (k == "free") {
        l.freed = true;
        l.real?.then((c) => c.free(), () => {});
        return;
      }
      if (getter) return l[k];
      if (k == "conversationStore") return l.store;
      // metrics() answers from the registry the lazy client shares with its real one.
      if (k == "metrics") return metricsOf(self)?.render() ?? "";
      return started(streamed, (s) => realOf(l).then((c) => call(c, kind, a, b, s)));
    }
    if (l) {
      self = l.client;
      if (k == "free") l.freed = true;
    }
    if (self?.__wbg_ptr) {
      if (k == "free") return free.call(self);
      if (k == "metrics") return metricsOf(self)?.render() ?? "";
      if (kind > OP.discard) return clientOp.call(self, kind, a, b, undefined);
      return started(streamed, (s) => call(self, kind, a, b, s));
    }
    if (k != "free") throw fail("bad_input", `Client.${k}: the client was freed`);
  }
  Object.defineProperty(Client.prototype, k, getter ? { get: f, configurable: true } : { value: f, writable: true, configurable: true });
});

// One operation of a real client, its events going to `s` when it streams. A toolkit declared
// before the module loaded is bound first (its declarations checked then).
function call(client, kind, a, b, s) {
  const go = () => {
    // The loop operations (run, runWithAnswer, ask, askWithAnswer, stream, streamWithAnswer) of a
    // signing client.
    const sig = kind < OP.translate && signerOf(client);
    const op = (a) => clientOp.call(client, kind, a, b, s);
    return sig ? signedOp(sig, kind, a, op, s) : op(a);
  };
  const kits = unbound(a, b);
  return kits ? kits.then(go) : go();
}

// What a method returns: the operation's promise, or its stream, which the promise's settling
// ends. The stream exists before the operation starts (a lazy client's waits for the module), and
// a consumer that leaves before then stops the run as soon as it starts.
function started(streamed, start) {
  const s = streamed ? new EventStream() : undefined;
  const p = start(s);
  if (!s) return p;
  p.then(() => s.end(), (e) => s.end(e));
  return s;
}
