// What the shipped JS uses from hosts whose typings are not installed for this check: Node's
// `readFileSync` (the node entries) and Workers' `DurableObject` fields the stores read.
declare module "node:fs" {
  export function readFileSync(path: URL | string): Uint8Array;
}

// Workers import the .wasm as a compiled module.
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
