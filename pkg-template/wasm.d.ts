// `import wasm from "toolnexus-wasm/toolnexus_wasm_bg.wasm"`: what a bundler or runtime makes of
// the module, which `init(wasm)` accepts either way: a WebAssembly.Module (Cloudflare Workers,
// wrangler) or the file's URL (a bundler's asset or file loader, e.g. esbuild's `file`).
declare const wasm: WebAssembly.Module | string;
export default wasm;
