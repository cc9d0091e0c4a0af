// Save/load latency and bytes per turn of each store in its real host (they measure, never
// assert): memoryStore in Node, kvStore and durableObjectStore in workerd (Miniflare, timed
// inside the Worker), chromeStorageStore in an MV3 service worker (Playwright + Chromium).
//   ./scripts/build.sh && node bench/stores.mjs
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..");
const require = createRequire(path.join(repo, "tools/js/package.json"));
const { memoryStore } = await import(path.join(repo, "pkg/node.js"));

// A realistic state: 20 turns, each a user prompt, a tool call, its result and an answer.
const messages = [];
for (let i = 0; i < 20; i++) {
  messages.push({ role: "user", content: `What is the weather in city ${i}?` });
  messages.push({ role: "assistant", content: "", tool_calls: [{ id: `call_${i}`, type: "function", function: { name: "get_weather", arguments: `{"city":"city ${i}"}` } }] });
  messages.push({ role: "tool", tool_call_id: `call_${i}`, content: `sunny, 21°C in city ${i}` });
  messages.push({ role: "assistant", content: `The weather in city ${i} is sunny, 21°C.` });
}
const base = { schemaVersion: 1, style: "openai", messages };
const bytes = JSON.stringify({ ...base, revision: 1 }).length;
const N = 200;
const stats = (xs) => { const s = [...xs].sort((a, b) => a - b); return { mean: s.reduce((a, b) => a + b, 0) / s.length, p95: s[Math.floor(s.length * 0.95)] }; };
const results = { stateBytes: bytes, bytesPerTurn: Math.round(bytes / 20) };

// memoryStore in Node
{
  const store = memoryStore();
  const save = [], load = [];
  for (let r = 1; r <= N; r++) {
    let t = performance.now(); await store.save("c", { ...base, revision: r }); save.push(performance.now() - t);
    t = performance.now(); await store.get("c"); load.push(performance.now() - t);
  }
  results.memory = { save: stats(save), load: stats(load) };
}

// kvStore and durableObjectStore inside workerd
{
  const { Miniflare } = require("miniflare");
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "tnx-store-bench-"));
  fs.cpSync(path.join(repo, "pkg"), path.join(root, "pkg"), { recursive: true });
  fs.writeFileSync(path.join(root, "worker.mjs"), `
    import { kvStore, durableObjectStore, ConversationObject } from "./pkg/workerd.js";
    export { ConversationObject };
    export default { async fetch(request, env) {
      const { kind, n, state } = await request.json();
      const store = kind === "kv" ? kvStore(env.KV) : durableObjectStore(env.DO);
      const save = [], load = [];
      for (let r = 1; r <= n; r++) {
        let t = Date.now(); await store.save("c", { ...state, revision: r }); save.push(Date.now() - t);
        t = Date.now(); await store.get("c"); load.push(Date.now() - t);
      }
      return Response.json({ save, load });
    } };`);
  const mf = new Miniflare({ modules: true, scriptPath: path.join(root, "worker.mjs"), modulesRoot: root,
    modulesRules: [{ type: "ESModule", include: ["**/*.js", "**/*.mjs"] }, { type: "CompiledWasm", include: ["**/*.wasm"] }],
    compatibilityDate: "2026-04-01", kvNamespaces: ["KV"], durableObjects: { DO: "ConversationObject" } });
  try {
    for (const kind of ["kv", "do"]) {
      const r = await (await mf.dispatchFetch("http://b/", { method: "POST", body: JSON.stringify({ kind, n: N, state: base }) })).json();
      results[kind] = { save: stats(r.save), load: stats(r.load) };
    }
  } finally { await mf.dispose(); fs.rmSync(root, { recursive: true, force: true }); }
}

// chromeStorageStore in an MV3 service worker
{
  const { chromium } = require("playwright-core");
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "tnx-store-bench-ext-"));
  const ext = path.join(root, "ext");
  fs.mkdirSync(ext);
  fs.cpSync(path.join(repo, "pkg"), path.join(ext, "pkg"), { recursive: true });
  fs.writeFileSync(path.join(ext, "manifest.json"), JSON.stringify({ manifest_version: 3, name: "bench", version: "1", permissions: ["storage"],
    background: { service_worker: "sw.js", type: "module" }, content_security_policy: { extension_pages: "script-src 'self' 'wasm-unsafe-eval'; object-src 'self'" } }));
  fs.writeFileSync(path.join(ext, "sw.js"), `import { chromeStorageStore } from "./pkg/index.js";
    self.bench = async (n, state) => { const store = chromeStorageStore(); const save = [], load = [];
      for (let r = 1; r <= n; r++) { let t = performance.now(); await store.save("c", { ...state, revision: r }); save.push(performance.now() - t);
        t = performance.now(); await store.get("c"); load.push(performance.now() - t); }
      return { save, load }; };`);
  const ctx = await chromium.launchPersistentContext(path.join(root, "p"), { executablePath: "/usr/bin/chromium", headless: true, ignoreDefaultArgs: ["--disable-extensions"],
    args: [`--disable-extensions-except=${ext}`, `--load-extension=${ext}`, "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"] });
  try {
    const sw = ctx.serviceWorkers()[0] ?? (await ctx.waitForEvent("serviceworker"));
    const r = await sw.evaluate(([n, state]) => self.bench(n, state), [N, base]);
    results.chrome = { save: stats(r.save), load: stats(r.load) };
  } finally { await ctx.close(); fs.rmSync(root, { recursive: true, force: true }); }
}

fs.mkdirSync(path.join(here, "out"), { recursive: true });
fs.writeFileSync(path.join(here, "out", "stores.json"), JSON.stringify(results, null, 2));
console.log(`state of a 20-turn conversation with tools: ${bytes} B (${results.bytesPerTurn} B per turn)`);
for (const k of ["memory", "kv", "do", "chrome"]) {
  const r = results[k];
  console.log(`${k.padEnd(6)} save mean ${r.save.mean.toFixed(3)} ms (p95 ${r.save.p95.toFixed(3)}), load mean ${r.load.mean.toFixed(3)} ms (p95 ${r.load.p95.toFixed(3)})  [n=${N}]`);
}
