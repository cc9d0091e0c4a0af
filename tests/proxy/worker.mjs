// The proxy Worker (examples/worker-proxy) with the built package, in workerd (Miniflare), and the
// official `openai` client pointed at it: what both proxy tests start.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { bundleExample, workerModules } from "../workerd/bundle-example.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.resolve(here, "../../tools/js/package.json"));
const { Miniflare } = require("miniflare");
const OpenAI = require("openai").default;

/** The Worker bundled as wrangler deploys it (bundle-example.mjs), once per process: both tests start several. */
let bundle;
const bundled = () => (bundle ??= bundleExample("worker-proxy", fs.mkdtempSync(path.join(os.tmpdir(), "tnx-proxy-bundle-"))));
process.on("exit", () => { if (bundle) fs.rmSync(bundle, { recursive: true, force: true }); });

/** Starts the Worker with these bindings; `close()` disposes of it and its copy of the files. */
export async function startProxyWorker(bindings) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "tnx-proxy-"));
  const mf = new Miniflare({
    ...workerModules(bundled()),
    compatibilityDate: "2026-04-01", host: "127.0.0.1", port: 0,
    bindings,
  });
  const url = await mf.ready;
  const openai = new OpenAI({ baseURL: new URL("/v1", url).href, apiKey: "proxy-client-key", maxRetries: 0 });
  const close = async () => {
    await mf.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  };
  return { mf, url, openai, close };
}
