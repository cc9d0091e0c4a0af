// The browser page's script (Vite, webpack): init() finds the .wasm beside the glue through
// `new URL(..., import.meta.url)`, which these bundlers emit as an asset.
import { roundTrip } from "./app.js";

roundTrip().then((r) => (window.__result = r), (e) => (window.__result = { error: String(e?.stack ?? e) }));
