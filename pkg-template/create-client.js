// @ts-check
// `createClient`: the wasm client with its default `memoryStore()`, signing with `stateSecret`,
// and made lazily when the wasm module has not loaded yet (client-methods.js).

import { createClient as createWith } from "./toolnexus_wasm.js";
import { isLoaded } from "./loader.js";
import { lazyClient } from "./client-methods.js";
import { Metrics, measured, meter } from "./metrics.js";
import { signWith, signedStore, signer } from "./signing.js";
import { memoryStore } from "./stores.js";

/**
 * `createClient(options)`: conversations are kept in a fresh `memoryStore()` unless `store` is
 * given. With `stateSecret`, halted results and stored states are signed (see signing.js): the
 * secret is taken out here, so the wasm never sees it, and the store is wrapped to sign what it
 * saves and verify what it reads. Its metric events are counted here for `metrics()`.
 */
export function createClient(options) {
  const registry = new Metrics();
  options = measured(options, registry);
  let secret, store, has;
  try {
    has = "stateSecret" in options;
    ({ stateSecret: secret, store } = options);
  } catch {} // not an object, a revoked Proxy: the wasm refuses it
  let make;
  if (has) {
    const sig = signer(secret);
    store ??= memoryStore();
    const ok = ["get", "save", "delete"].every((m) => typeof store[m] == "function");
    const opts = { ...options, stateSecret: undefined, store: ok ? signedStore(store, sig) : store };
    store = opts.store;
    make = () => {
      const client = createWith(opts);
      signWith(client, sig);
      meter(client, registry);
      return client;
    };
  } else {
    const fallback = memoryStore();
    // Read now, as a client made after the load would read them, not when the module is in.
    const opts = isLoaded() ? options : snapshot(options);
    store ??= fallback;
    make = () => {
      const client = createWith(opts, fallback);
      meter(client, registry);
      return client;
    };
  }
  const client = isLoaded() ? make() : lazyClient(make, options, store);
  meter(client, registry);
  return client;
}

function snapshot(o) {
  try {
    if (o !== null && typeof o == "object" && !Array.isArray(o)) return { ...o };
  } catch {} // a revoked Proxy, a throwing getter: the wasm refuses the original
  return o;
}
