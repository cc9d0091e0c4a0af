// The wasm exports the edge marks `skip_typescript` (their typings are the package's own, in
// pkg-template/index.d.ts), as the JS-written API uses them (api.js, client-methods.js,
// create-client.js): appended to the glue's .d.ts for this check.
export class Client {
  free(): void;
  op(kind: number, a?: unknown, b?: unknown, stream?: unknown): any;
  __wbg_ptr: number;
}
export function createClient(options: unknown, defaultStore: unknown): Client;
export function op(kind: number, a?: unknown, b?: unknown, c?: unknown): any;
