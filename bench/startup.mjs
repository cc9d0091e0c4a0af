// Startup side by side (issue 23): load + instantiate + createClient + the first request (an
// in-process mock fetch: one OpenAI chat completion), in a Chromium MV3 service worker and in
// workerd, for
//   ours    this package: the browser entry (`init()` fetches and instantiates the .wasm) in the
//           service worker; the workerd entry (CompiledWasm module + initSync) in workerd
//   aisdk   Vercel AI SDK: `ai` + `@ai-sdk/openai` bundled by esbuild (minified ESM), then
//           createOpenAI({ fetch }).chat(model) and generateText
//   empty   the same worker with no library: the mock fetch and `res.json()` (the floor: what
//           starting a worker costs before any library)
//   node bench/startup.mjs                 # both hosts; writes bench/out/startup.json
//   HOSTS=chromium RESTARTS=20 node bench/startup.mjs
// Chromium: per round, each variant (shuffled) in a fresh profile holding its extension alone.
// The first start (the install: no code cache) is the "cold" figure; then the service worker is
// stopped (CDP, as Chrome stops an idle MV3 worker) and woken by a message: the "restart" figures. Times are
// `performance.now()` in the worker at the end of the first request: from the worker's time
// origin, so fetching, compiling and evaluating the scripts and the .wasm count.
// workerd: a fresh Miniflare per sample (variants interleaved): the time from `new Miniflare`
// until the first request's response, measured in Node (time inside workerd only advances across
// I/O); `empty` gives what workerd itself takes, and "net" is the median over rounds of a
// variant's time minus empty's in the same round.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const tools = createRequire(path.join(root, "tools/js/package.json"));

const REPLY = JSON.stringify({
  id: "chatcmpl-1", object: "chat.completion", created: 1700000000, model: "bench",
  choices: [{ index: 0, message: { role: "assistant", content: "Hello from the mock." }, finish_reason: "stop" }],
  usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
});
const MOCK = `const mockFetch = async () => new Response(${JSON.stringify(REPLY)}, { status: 200, headers: { "content-type": "application/json" } });`;
// Each app's `first()`: the phases in ms (by the worker's own clock) and the reply's text.
const APPS = {
  ours: (entry) => `import { init, createClient } from "./pkg/${entry}";
${MOCK}
export async function first() {
  const a = performance.now();
  await init();
  const b = performance.now();
  const client = createClient({ baseUrl: "http://mock/v1", style: "openai", model: "bench", apiKey: "k", fetch: mockFetch });
  const c = performance.now();
  const r = await client.run("hi");
  return { text: r.text, init: b - a, create: c - b, request: performance.now() - c };
}`,
  aisdk: () => `import { generateText, createOpenAI } from "./aisdk.js";
${MOCK}
export async function first() {
  const b = performance.now();
  const model = createOpenAI({ fetch: mockFetch, apiKey: "k", baseURL: "http://mock/v1" }).chat("bench");
  const c = performance.now();
  const r = await generateText({ model, prompt: "hi" });
  return { text: r.text, init: 0, create: c - b, request: performance.now() - c };
}`,
  empty: () => `${MOCK}
export async function first() {
  const c = performance.now();
  const r = await (await mockFetch("http://mock/v1/chat/completions", { method: "POST", body: "{}" })).json();
  return { text: r.choices[0].message.content, init: 0, create: 0, request: performance.now() - c };
}`,
};
const EXPECTED = "Hello from the mock.";
const NAMES = Object.keys(APPS);

/** A folder per variant and host: the app, the package or the AI SDK bundle. */
function prepare(dir, pkgDir) {
  fs.mkdirSync(dir, { recursive: true });
  const entry = path.join(dir, "aisdk-entry.mjs");
  fs.writeFileSync(entry, `export { generateText } from "ai";\nexport { createOpenAI } from "@ai-sdk/openai";\n`);
  const bundle = path.join(dir, "aisdk.js");
  execFileSync(path.join(root, "tools/js/node_modules/.bin/esbuild"), [entry, "--bundle", "--minify", "--format=esm", "--platform=browser",
    "--conditions=workerd,worker,browser", `--outfile=${bundle}`, "--log-level=error"], { env: { ...process.env, NODE_PATH: path.join(here, "node_modules") } });
  const out = {};
  for (const host of ["chromium", "workerd"]) {
    for (const name of NAMES) {
      const d = path.join(dir, host, name);
      fs.mkdirSync(d, { recursive: true });
      fs.writeFileSync(path.join(d, "app.js"), APPS[name](host === "chromium" ? "index.js" : "workerd.js"));
      if (name === "ours") fs.cpSync(pkgDir, path.join(d, "pkg"), { recursive: true, filter: (s) => !s.includes(`${path.sep}mcp`) });
      if (name === "aisdk") fs.copyFileSync(bundle, path.join(d, "aisdk.js"));
      out[`${host}/${name}`] = d;
    }
  }
  return { dirs: out, aisdkBundleBytes: fs.statSync(bundle).size };
}

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
let seed = 7;
const shuffled = (xs) => {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32) * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
};

// ---- Chromium: MV3 service workers ------------------------------------------------------------
const SW = `import { first } from "./app.js";
const loaded = performance.now(); // the scripts fetched, compiled and evaluated
const result = first().then((r) => ({ ...r, loaded, total: performance.now() }), (e) => ({ error: String(e?.stack ?? e) }));
chrome.runtime.onMessage.addListener((m, sender, reply) => (result.then(reply), true));
`;

async function chromium(dirs, { profiles, restarts, log }) {
  const { chromium } = tools("playwright-core");
  for (const name of NAMES) {
    const d = dirs[`chromium/${name}`];
    fs.writeFileSync(path.join(d, "sw.js"), SW);
    fs.writeFileSync(path.join(d, "page.html"), "<!doctype html><meta charset=utf-8><title>startup</title>");
    fs.writeFileSync(path.join(d, "manifest.json"), JSON.stringify({
      manifest_version: 3, name: `startup-${name}`, version: "0.0.1", background: { service_worker: "sw.js", type: "module" },
      content_security_policy: { extension_pages: "script-src 'self' 'wasm-unsafe-eval'; object-src 'self'" },
    }));
  }
  const samples = Object.fromEntries(NAMES.map((n) => [n, { cold: [], restart: [] }]));
  for (let p = 0; p < profiles; p++) {
    for (const n of shuffled(NAMES)) {
      // A fresh profile with this extension alone: its install is the cold start.
      const profile = fs.mkdtempSync(path.join(os.tmpdir(), "tnx-startup-profile-"));
      const ext = dirs[`chromium/${n}`];
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: "/usr/bin/chromium", headless: true, ignoreDefaultArgs: ["--disable-extensions"],
        args: [`--disable-extensions-except=${ext}`, `--load-extension=${ext}`, "--no-sandbox", "--disable-gpu", "--no-first-run",
          "--disable-background-networking", "--disable-component-update", "--disable-sync"],
      });
      try {
        const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker", { timeout: 20_000 }));
        const page = await context.newPage();
        await page.goto(`chrome-extension://${new URL(sw.url()).host}/page.html`);
        const ask = async () => {
          const r = await page.evaluate(() => chrome.runtime.sendMessage({ startup: true }));
          if (r?.error || r?.text !== EXPECTED) throw new Error(`chromium ${n}: ${JSON.stringify(r)}`);
          return r;
        };
        samples[n].cold.push(await ask());
        const cdp = await context.newCDPSession(page);
        const running = new Map();
        cdp.on("ServiceWorker.workerVersionUpdated", (e) => { for (const v of e.versions) running.set(v.versionId, v.runningStatus); });
        await cdp.send("ServiceWorker.enable");
        for (let i = 0; i < restarts; i++) {
          await cdp.send("ServiceWorker.stopAllWorkers");
          for (let k = 0; k < 100 && [...running.values()].some((s) => s !== "stopped"); k++) await new Promise((r) => setTimeout(r, 20));
          samples[n].restart.push(await ask());
        }
      } finally {
        await context.close();
        fs.rmSync(profile, { recursive: true, force: true });
      }
    }
    log(`  chromium round ${p + 1}/${profiles}: ${NAMES.map((n) => `${n} cold ${samples[n].cold.at(-1).total.toFixed(1)} ms, restart median ${median(samples[n].restart.map((s) => s.total)).toFixed(1)} ms`).join("; ")}`);
  }
  const sum = (xs) => ({ n: xs.length, total: median(xs.map((s) => s.total)), loaded: median(xs.map((s) => s.loaded)), init: median(xs.map((s) => s.init)),
    create: median(xs.map((s) => s.create)), request: median(xs.map((s) => s.request)), min: Math.min(...xs.map((s) => s.total)), max: Math.max(...xs.map((s) => s.total)) });
  return Object.fromEntries(NAMES.map((n) => [n, { cold: sum(samples[n].cold), restart: sum(samples[n].restart) }]));
}

// ---- workerd (Miniflare) ------------------------------------------------------------------------
const WORKER = `import { first } from "./app.js";
export default { async fetch() { return Response.json(await first()); } };
`;

async function workerd(dirs, { samples: n, log }) {
  const { Miniflare } = tools("miniflare");
  for (const name of NAMES) fs.writeFileSync(path.join(dirs[`workerd/${name}`], "worker.mjs"), WORKER);
  const xs = Object.fromEntries(NAMES.map((k) => [k, []]));
  for (let i = 0; i < n + 1; i++) {
    for (const name of shuffled(NAMES)) {
      const d = dirs[`workerd/${name}`];
      const t0 = performance.now();
      const mf = new Miniflare({
        modules: true, scriptPath: path.join(d, "worker.mjs"), modulesRoot: d, compatibilityDate: "2026-04-01",
        modulesRules: [{ type: "ESModule", include: ["**/*.js", "**/*.mjs"] }, { type: "CompiledWasm", include: ["**/*.wasm"] }],
      });
      try {
        await mf.ready;
        const t1 = performance.now();
        const res = await mf.dispatchFetch("http://worker/");
        const r = await res.json();
        const t2 = performance.now();
        if (r.text !== EXPECTED) throw new Error(`workerd ${name}: ${JSON.stringify(r)}`);
        if (i > 0) xs[name].push({ total: t2 - t0, ready: t1 - t0, request: t2 - t1 }); // the first round warms the disk cache
      } finally {
        await mf.dispose();
      }
    }
  }
  const out = {};
  for (const name of NAMES) {
    const s = xs[name];
    out[name] = { n: s.length, total: median(s.map((x) => x.total)), ready: median(s.map((x) => x.ready)), request: median(s.map((x) => x.request)),
      min: Math.min(...s.map((x) => x.total)), max: Math.max(...s.map((x) => x.total)) };
  }
  // Net of workerd itself: the median of each round's difference to empty (same round, same load).
  for (const name of NAMES) out[name].net = median(xs[name].map((x, i) => x.total - xs.empty[i].total));
  log(`  workerd (${n} samples each): ${NAMES.map((k) => `${k} ${out[k].total.toFixed(1)} ms`).join(", ")}`);
  return out;
}

/** Both hosts (or those in `hosts`); returns the medians and the sizes of what each loads. */
export async function runStartup({ pkgDir, quick = false, hosts = ["chromium", "workerd"], log = console.log } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tnx-startup-"));
  try {
    const { dirs, aisdkBundleBytes } = prepare(dir, pkgDir);
    const load0 = os.loadavg();
    const t0 = performance.now();
    const out = { aisdkBundleBytes, wasmBytes: fs.statSync(path.join(pkgDir, "toolnexus_wasm_bg.wasm")).size };
    if (hosts.includes("chromium")) {
      out.chromium = await chromium(dirs, { profiles: Number(process.env.PROFILES ?? (quick ? 1 : 3)), restarts: Number(process.env.RESTARTS ?? (quick ? 3 : 10)), log });
    }
    if (hosts.includes("workerd")) out.workerd = await workerd(dirs, { samples: Number(process.env.SAMPLES ?? (quick ? 3 : 12)), log });
    return { ...out, loadavg: { start: load0, end: os.loadavg() }, seconds: (performance.now() - t0) / 1000 };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const f1 = (x) => x.toFixed(1), f2 = (x) => x.toFixed(2);
export function printStartup(res, log = console.log) {
  log(`\nstartup: load + instantiate + createClient + first request (mock fetch), ms, medians; AI SDK bundle ${res.aisdkBundleBytes} B, our .wasm ${res.wasmBytes} B`);
  if (res.chromium) {
    const c = res.chromium;
    log(`Chromium MV3 service worker   ${NAMES.map((n) => n.padStart(22)).join("")}   ours/aisdk`);
    for (const k of ["cold", "restart"]) {
      log(`  ${(k === "cold" ? `first start (n=${c.ours.cold.n})` : `restart (n=${c.ours.restart.n})`).padEnd(28)}${NAMES.map((n) => `${f1(c[n][k].total)} (load ${f1(c[n][k].loaded)})`.padStart(22)).join("")}   ${f2(c.ours[k].total / c.aisdk[k].total)}   range ${NAMES.map((n) => `${n} ${f1(c[n][k].min)}–${f1(c[n][k].max)}`).join(", ")}`);
    }
    log(`  phases at restart, ours: init ${f2(c.ours.restart.init)}, createClient ${f2(c.ours.restart.create)}, first request ${f2(c.ours.restart.request)}; aisdk: createOpenAI ${f2(c.aisdk.restart.create)}, first request ${f2(c.aisdk.restart.request)}`);
  }
  if (res.workerd) {
    const w = res.workerd;
    log(`workerd (Miniflare), new Miniflare → first response: ${NAMES.map((n) => `${n} ${f1(w[n].total)} (ready ${f1(w[n].ready)}, request ${f1(w[n].request)})`).join(", ")}; net of empty: ours ${f1(w.ours.net)}, aisdk ${f1(w.aisdk.net)}`);
  }
  log(`(${f1(res.seconds)} s, load average ${res.loadavg.start.map(f2).join(" ")} → ${res.loadavg.end.map(f2).join(" ")})`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const pkgDir = path.resolve(process.env.TOOLNEXUS_PKG ?? path.join(root, "pkg"));
  const hosts = process.env.HOSTS ? process.env.HOSTS.split(",") : undefined;
  const res = await runStartup({ pkgDir, quick: !!process.env.QUICK, hosts });
  printStartup(res);
  fs.mkdirSync(path.join(here, "out"), { recursive: true });
  fs.writeFileSync(path.join(here, "out", "startup.json"), JSON.stringify({ date: new Date().toISOString(), node: process.version, pkg: pkgDir, ...res }, null, 2));
}
