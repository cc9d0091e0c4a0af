// esbuild does not emit `new URL(..., import.meta.url)` assets: the .wasm is imported with the
// `file` loader (its URL) and given to init(), as the package README says.
import wasm from "toolnexus-wasm/toolnexus_wasm_bg.wasm";
import { roundTrip } from "./app.js";

roundTrip(wasm).then((r) => (window.__result = r), (e) => (window.__result = { error: String(e?.stack ?? e) }));
