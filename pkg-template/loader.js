// @ts-check
// Whether this realm's wasm module is ready, and how to get it ready. The Node and workerd
// entries instantiate it synchronously on import and say so (`loaded()`); the browser entry
// (index.js) registers its `init` as the loader, so that the first call that needs the wasm
// loads it. That is what lets every export be used at module level in an MV3 service worker,
// where a top-level `await init()` is refused ("Top-level await is disallowed in service
// workers") and an event may arrive before anything was loaded. See
// docs/decisions/init-optional.md.

import { ToolnexusError } from "./host.js";

let ready = false;
/** @type {(() => Promise<void>) | undefined} */
let loader;

/** True once the wasm module is instantiated. */
export const isLoaded = () => ready;

/** The entry says the module is instantiated. */
export function loaded() {
  ready = true;
}

/** The browser entry's default load (its `init()` without arguments). */
export function setLoader(/** @type {() => Promise<void>} */ f) {
  loader = f;
}

/** Resolves once the module is ready, loading it with the entry's default if nothing has yet. */
export function whenLoaded() {
  return ready || !loader ? Promise.resolve() : loader();
}

/**
 * A declaration made before the module loaded carries this (a registered symbol, so that the
 * MCP entry's declarations use the same one): a function that gives the declaration as it would
 * have been made after the load, checked. A toolkit calls it when a run first needs the tools.
 */
export const LATER = Symbol.for("toolnexus-wasm.later");

/**
 * A failed load (`init()` of either entry) as a ToolnexusError that names the fix. The
 * browser's own CSP message suggests 'unsafe-eval', which Chrome refuses in an extension's
 * manifest: the fix is 'wasm-unsafe-eval'.
 */
export function loadError(/** @type {any} */ e) {
  const text = String(e?.message ?? e);
  const csp = /Content.Security.Policy|wasm-eval|unsafe-eval|\bCSP\b/i.test(text);
  const hint = csp
    ? "the Content Security Policy refuses WebAssembly: add 'wasm-unsafe-eval' to script-src (not 'unsafe-eval'). In an MV3 extension's manifest.json: \"content_security_policy\": { \"extension_pages\": \"script-src 'self' 'wasm-unsafe-eval'; object-src 'self'\" }"
    : "if your bundler does not emit the .wasm file beside the code (esbuild), import it and pass it: init(wasm)";
  return new ToolnexusError(`init: the wasm module could not be loaded (${text}); ${hint}`, "bad_state", { cause: e });
}
