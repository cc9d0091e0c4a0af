// Proxy overhead: the translate proxy Worker (examples/worker-proxy) against a Worker that only
// forwards the body, both in workerd (Miniflare) in front of the scripted model on 127.0.0.1.
//   ./scripts/build.sh && node bench/proxy.mjs      (uses the package in pkg/)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";
import { startScriptedModel } from "../demo/scripted-model.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const { Miniflare } = createRequire(path.resolve(here, "../tools/js/package.json"))("miniflare");
const root = fs.mkdtempSync(path.join(os.tmpdir(), "tnx-proxy-bench-"));
fs.cpSync(path.resolve(here, "../pkg"), path.join(root, "pkg"), { recursive: true });
fs.copyFileSync(path.resolve(here, "../examples/worker-proxy/worker.mjs"), path.join(root, "worker.mjs"));
fs.writeFileSync(path.join(root, "passthrough.mjs"), `export default { async fetch(request, env) {
  const r = await fetch(env.OPENAI_BASE_URL + "/chat/completions", { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer " + env.OPENAI_API_KEY }, body: await request.text() });
  return new Response(r.body, { status: r.status, headers: { "content-type": "application/json" } });
} };`);

const model = await startScriptedModel();
const worker = (script) => new Miniflare({
  modules: true, scriptPath: path.join(root, script), modulesRoot: root,
  modulesRules: [{ type: "ESModule", include: ["**/*.js", "**/*.mjs"] }, { type: "CompiledWasm", include: ["**/*.wasm"] }],
  compatibilityDate: "2026-04-01",
  bindings: { OPENAI_BASE_URL: `${model.url}/v1`, ANTHROPIC_BASE_URL: model.url, GEMINI_BASE_URL: model.url, OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k", GEMINI_API_KEY: "k" },
});
const stats = (xs) => { const s = [...xs].sort((a, b) => a - b); return { mean: s.reduce((a, b) => a + b, 0) / s.length, p50: s[s.length >> 1], p95: s[Math.floor(s.length * 0.95)] }; };

async function measure(mf, modelName, n = 300) {
  const body = JSON.stringify({ model: modelName, messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "#hello" }] });
  const once = async () => {
    const r = await mf.dispatchFetch("http://proxy/v1/chat/completions", { method: "POST", body, headers: { "content-type": "application/json" } });
    const j = await r.json();
    if (!j.choices) throw new Error(JSON.stringify(j));
  };
  for (let i = 0; i < 50; i++) await once();
  const xs = [];
  for (let i = 0; i < n; i++) { const t = performance.now(); await once(); xs.push(performance.now() - t); }
  return stats(xs);
}

// The library's own share, without workerd's IPC: translate in + out in Node, in-process fetch.
const { createClient } = await import(path.resolve(here, "../pkg/node.js"));
const replies = {
  openai: JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: "Hello." }, finish_reason: "stop" }], usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 } }),
  anthropic: JSON.stringify({ content: [{ type: "text", text: "Hello." }], stop_reason: "end_turn", usage: { input_tokens: 9, output_tokens: 2 } }),
  gemini: JSON.stringify({ candidates: [{ content: { role: "model", parts: [{ text: "Hello." }] }, finishReason: "STOP" }], usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 2, totalTokenCount: 11 } }),
};
const inProcess = {};
for (const style of ["openai", "anthropic", "gemini"]) {
  const c = createClient({ baseUrl: "http://mock", style, model: "m", apiKey: "k", fetch: async () => ({ status: 200, text: async () => replies[style] }) });
  const req = { messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "hello" }] };
  for (let i = 0; i < 300; i++) await c.translate(req);
  const xs = [];
  for (let i = 0; i < 1000; i++) { const t = performance.now(); await c.translate(req); xs.push(performance.now() - t); }
  inProcess[style] = stats(xs);
}

const pass = worker("passthrough.mjs");
const proxy = worker("worker.mjs");
try {
  const base = await measure(pass, "gpt-scripted");
  const results = { passthrough: base, inProcess };
  for (const [style, st] of Object.entries(inProcess)) console.log(`translate in + out, in process (${style}): mean ${st.mean.toFixed(3)} ms, p95 ${st.p95.toFixed(3)} ms`);
  for (const m of ["gpt-scripted", "claude-scripted", "gemini-scripted"]) results[m] = await measure(proxy, m);
  const f = (x) => x.toFixed(3);
  console.log(`pass-through Worker (OpenAI upstream): mean ${f(base.mean)} ms, p50 ${f(base.p50)} ms, p95 ${f(base.p95)} ms`);
  for (const m of ["gpt-scripted", "claude-scripted", "gemini-scripted"]) {
    const s = results[m];
    console.log(`translate proxy → ${m}: mean ${f(s.mean)} ms, p50 ${f(s.p50)} ms, p95 ${f(s.p95)} ms; overhead ${f(s.mean - base.mean)} ms mean`);
  }
  fs.mkdirSync(path.join(here, "out"), { recursive: true });
  fs.writeFileSync(path.join(here, "out", "proxy.json"), JSON.stringify(results, null, 2));
} finally {
  await pass.dispose(); await proxy.dispose(); await model.close(); fs.rmSync(root, { recursive: true, force: true });
}
