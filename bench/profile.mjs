// Where the per-run time of this package goes (the "ours" workload of compare.mjs).
//
//   cd bench && npm ci && cd ..   # once
//   node bench/profile.mjs        # builds a copy with names, counts, CPU-profiles; prints a report
//                                 # and writes bench/out/profile.json + bench/out/prof/*.cpuprofile
//
// It needs the wasm toolchain (cargo, wasm-bindgen, wasm-opt from tools/js): the shipped
// pkg/ has no function names, so this builds the same release wasm once more and keeps them:
// `cargo build --release --lib` (the profile wasm-pack uses) → wasm-bindgen (web target, weak
// refs, as scripts/build.sh) → wasm-opt with the package's flags plus -g. The unminified glue
// goes beside it, so JS frames are named too. SKIP_BUILD=1 reuses bench/out/prof/named.
//
// 1. Counts, per run, with an instrumented copy of the glue (bench/out/prof/counted): every
//    wasm→JS import call and JS→wasm export call by name, strings copied each way (count and
//    UTF-16 units / UTF-8 bytes), JSON.parse / JSON.stringify calls and characters, promises
//    created (async_hooks), and Response.text()/json() calls. The minimal loop and the AI SDK
//    get the JSON and promise counts too, for scale.
// 2. `node --cpu-prof` over a loop of runs of the named copy; self time of the measured part
//    (after the warm-up) by frame and by area (wasm by module, glue, mock/Response, GC, …), and
//    inclusive time of the frames that matter.
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
// PROF_DIR=dir: another output folder (say, for a second build at another opt-level, made with
// CARGO_TARGET_DIR=... CARGO_PROFILE_RELEASE_OPT_LEVEL=3, whose per-function times to compare).
const outDir = path.resolve(process.env.PROF_DIR ?? path.join(here, "out", "prof"));
const targetDir = path.resolve(root, process.env.CARGO_TARGET_DIR ?? "target");
const named = path.join(outDir, "named");
const counted = path.join(outDir, "counted");
const mode = process.argv[2] ?? "main";

if (mode === "main") await main();
else if (mode === "count") await count();
else if (mode === "cpu") await cpuLoop();
else throw new Error(`unknown mode ${mode}`);

// ---- 0. the named build and the instrumented copy ------------------------------------------
function build() {
  const env = { ...process.env, PATH: `${path.join(root, "tools/js/node_modules/.bin")}:${process.env.HOME}/.cargo/bin:${process.env.PATH}` };
  const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, env, stdio: ["ignore", "inherit", "inherit"] });
  run("cargo", ["build", "--quiet", "--lib", "--release", "--target", "wasm32-unknown-unknown"]);
  const bg = path.join(outDir, "bindgen");
  fs.rmSync(bg, { recursive: true, force: true });
  run("wasm-bindgen", ["--target", "web", "--weak-refs", "--out-dir", bg, "--out-name", "toolnexus_wasm", path.join(targetDir, "wasm32-unknown-unknown/release/toolnexus_wasm.wasm")]);
  const flags = JSON.parse(execFileSync("node", ["-e", `
    const t = require("fs").readFileSync("Cargo.toml", "utf8");
    const m = t.match(/wasm-opt = \\[([^\\]]*)\\]/s);
    console.log(JSON.stringify(m ? JSON.parse("[" + m[1] + "]") : ["-O"]));`], { cwd: root }).toString());
  fs.rmSync(named, { recursive: true, force: true });
  fs.mkdirSync(named, { recursive: true });
  run("wasm-opt", [path.join(bg, "toolnexus_wasm_bg.wasm"), "-o", path.join(named, "toolnexus_wasm_bg.wasm"), ...flags, "-g"]);
  fs.copyFileSync(path.join(bg, "toolnexus_wasm.js"), path.join(named, "toolnexus_wasm.js"));
  // inline_js / module snippets, if the edge has any
  if (fs.existsSync(path.join(bg, "snippets"))) fs.cpSync(path.join(bg, "snippets"), path.join(named, "snippets"), { recursive: true });
  for (const f of fs.readdirSync(path.join(root, "pkg-template")).filter((f) => f.endsWith(".js"))) fs.copyFileSync(path.join(root, "pkg-template", f), path.join(named, f));
  // The API's files import the edge's host.js, which the glue holds as a snippet (as scripts/build.sh does).
  const host = fs.readdirSync(path.join(named, "snippets"), { recursive: true }).find((f) => f.endsWith(path.join("src", "wasm", "host.js")));
  for (const f of fs.readdirSync(named).filter((f) => f.endsWith(".js"))) {
    const src = fs.readFileSync(path.join(named, f), "utf8");
    if (src.includes('from "./host.js"')) fs.writeFileSync(path.join(named, f), src.replace('from "./host.js"', `from "./snippets/${host}"`));
  }
  fs.writeFileSync(path.join(named, "package.json"), '{ "type": "module" }\n');
}

// The glue, with counters: the import object and the exports are wrapped once at init, and the
// two string-copy helpers count what they copy. Counting is off until globalThis.__tn is set.
function instrument() {
  fs.rmSync(counted, { recursive: true, force: true });
  fs.cpSync(named, counted, { recursive: true });
  const f = path.join(counted, "toolnexus_wasm.js");
  let g = fs.readFileSync(f, "utf8");
  const sub = (from, to) => {
    if (!g.includes(from)) throw new Error(`glue has changed: no ${JSON.stringify(from)}`);
    g = g.replace(from, to);
  };
  sub("function __wbg_get_imports(", "function __wbg_get_imports_plain(");
  sub("wasm = instance.exports;", "wasm = __tnWrapExports(instance.exports);");
  sub("function passStringToWasm0(arg, malloc, realloc) {", "function passStringToWasm0(arg, malloc, realloc) {\n    if (globalThis.__tn) { globalThis.__tn.toWasm.n++; globalThis.__tn.toWasm.units += arg.length; globalThis.__tn.toWasm.sizes.push(arg.length); }");
  sub("function getStringFromWasm0(ptr, len) {", "function getStringFromWasm0(ptr, len) {\n    if (globalThis.__tn) { globalThis.__tn.fromWasm.n++; globalThis.__tn.fromWasm.bytes += len; globalThis.__tn.fromWasm.sizes.push(len); }");
  g += `
function __tnCount(kind, name) {
    const t = globalThis.__tn;
    if (t) t[kind][name] = (t[kind][name] ?? 0) + 1;
}
function __wbg_get_imports(...a) {
    const mods = __wbg_get_imports_plain(...a);
    for (const [name, m0] of Object.entries(mods)) {
        // A snippet's module namespace is read-only: count through a plain copy of it.
        const m = (mods[name] = { ...m0 });
        for (const [k, f] of Object.entries(m)) {
            if (typeof f === "function") m[k] = function (...args) { __tnCount("imports", k); return f.apply(this, args); };
        }
    }
    return mods;
}
function __tnWrapExports(ex) {
    const w = {};
    for (const [k, v] of Object.entries(ex)) {
        w[k] = typeof v === "function" ? function (...args) { __tnCount("exports", k); return v.apply(this, args); } : v;
    }
    return w;
}
`;
  fs.writeFileSync(f, g);
}

// ---- 1. counts -----------------------------------------------------------------------------
async function count() {
  const { createHook } = await import("node:async_hooks");
  const w = await import("./workload.mjs");
  const oursRun = await w.loadOurs(counted);
  const N = Number(process.env.COUNT_RUNS ?? 200);
  const variants = { ours: [oursRun(0), w.oursOk], "ours@100": [oursRun(100), w.oursOk], minimal: [w.minimalRun(0), w.minimalOk], aisdk: [w.aisdkRun(0), w.aisdkOk] };
  const jp = JSON.parse, js = JSON.stringify;
  const rt = Response.prototype.text, rj = Response.prototype.json;
  const result = {};
  for (const [name, [run, ok]] of Object.entries(variants)) {
    for (let i = 0; i < 100; i++) {
      w.mock.calls = 0;
      if (!ok(await run())) throw new Error(`${name} failed`);
    }
    const t = { imports: {}, exports: {}, toWasm: { n: 0, units: 0, sizes: [] }, fromWasm: { n: 0, bytes: 0, sizes: [] },
      json: { parse: 0, parseChars: 0, stringify: 0, stringifyChars: 0 }, response: { text: 0, json: 0 }, promises: 0 };
    const hook = createHook({ init(_id, type) { if (type === "PROMISE") t.promises++; } });
    JSON.parse = function (s, r) { t.json.parse++; t.json.parseChars += String(s).length; return jp.call(this, s, r); };
    JSON.stringify = function (...a) { const s = js.apply(this, a); t.json.stringify++; t.json.stringifyChars += s?.length ?? 0; return s; };
    Response.prototype.text = function () { t.response.text++; return rt.call(this); };
    Response.prototype.json = function () { t.response.json++; return rj.call(this); };
    if (name.startsWith("ours")) globalThis.__tn = t;
    hook.enable();
    for (let i = 0; i < N; i++) {
      w.mock.calls = 0;
      const r = await run();
      if (!ok(r) || w.mock.calls !== 2) throw new Error(`${name} failed`);
    }
    hook.disable();
    globalThis.__tn = undefined;
    Object.assign(JSON, { parse: jp, stringify: js });
    Object.assign(Response.prototype, { text: rt, json: rj });
    const per = (x) => x / N;
    const byName = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, per(v)]).sort((a, b) => b[1] - a[1]));
    const hist = (sizes) => {
      const b = { "<16": 0, "16-255": 0, "256-4095": 0, ">=4096": 0 };
      for (const s of sizes) b[s < 16 ? "<16" : s < 256 ? "16-255" : s < 4096 ? "256-4095" : ">=4096"]++;
      return Object.fromEntries(Object.entries(b).map(([k, v]) => [k, per(v)]));
    };
    const sum = (o) => Object.values(o).reduce((a, b) => a + b, 0);
    result[name] = {
      promises: per(t.promises),
      json: Object.fromEntries(Object.entries(t.json).map(([k, v]) => [k, per(v)])),
      response: byName(t.response),
      ...(name.startsWith("ours") ? {
        crossings: { wasmToJs: per(sum(t.imports)), jsToWasm: per(sum(t.exports)) },
        imports: byName(t.imports),
        exports: byName(t.exports),
        stringsToWasm: { n: per(t.toWasm.n), units: per(t.toWasm.units), bySize: hist(t.toWasm.sizes) },
        stringsFromWasm: { n: per(t.fromWasm.n), bytes: per(t.fromWasm.bytes), bySize: hist(t.fromWasm.sizes) },
      } : {}),
    };
  }
  process.stdout.write(JSON.stringify(result));
}

// ---- 2. the CPU-profiled loop ---------------------------------------------------------------
async function cpuLoop() {
  const w = await import("./workload.mjs");
  const n = Number(process.env.HISTORY ?? 0);
  const run = (await w.loadOurs(named))(n);
  const N = Number(process.env.PROFILE_RUNS ?? 4000);
  for (let i = 0; i < 500; i++) {
    w.mock.calls = 0;
    if (!w.oursOk(await run())) throw new Error("ours failed");
  }
  // The profile's clock is the monotonic one (µs), the same as process.hrtime.
  const start = Number(process.hrtime.bigint() / 1000n);
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    w.mock.calls = 0;
    const r = await run();
    if (!w.oursOk(r) || w.mock.calls !== 2) throw new Error("ours failed");
  }
  const ms = (performance.now() - t0) / N;
  const end = Number(process.hrtime.bigint() / 1000n);
  fs.writeFileSync(path.join(outDir, `window-h${n}.json`), JSON.stringify({ start, end, runs: N, msPerRun: ms }));
}

// Self and inclusive time per frame over the measured window of a .cpuprofile.
function analyse(file, window) {
  const p = JSON.parse(fs.readFileSync(file, "utf8"));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const glue = (u) => u.endsWith("/toolnexus_wasm.js");
  const frame = (n) => {
    const { functionName: fn, url } = n.callFrame;
    const name = fn || "(anonymous)";
    if (url.startsWith("wasm://")) return `wasm ${name}`;
    if (glue(url)) return `glue ${name}`;
    if (!url) return name.startsWith("(") ? name : `native ${name}`;
    return `${name} ${url.replace(/^file:\/\/.*\/(bench|pkg-template|named)\//, "$1/").replace(/^node:/, "node:")}`;
  };
  // An area for each leaf: which side of the boundary the time is spent on.
  const area = (n) => {
    const { functionName: fn, url } = n.callFrame;
    if (url.startsWith("wasm://")) {
      const m = fn.match(/^(?:<)?([a-z_0-9]+)::([a-z_0-9]+)/);
      if (!m) return "wasm (other)";
      if (m[1] === "toolnexus_wasm") return `wasm toolnexus_wasm::${m[2]}`;
      return `wasm ${m[1]}`;
    }
    if (glue(url)) return "glue (wasm-bindgen JS)";
    if (url.includes("/bench/workload.mjs") || url.includes("/bench/profile.mjs")) return "bench (mock fetch, tools, loop)";
    if (url.includes("/named/")) return "package JS entry";
    if (url.startsWith("node:internal/deps/undici") || url.includes("webstreams") || url.includes("internal/blob") || url.includes("encoding")) return "Response / undici / streams";
    if (url.startsWith("node:")) return "node internals";
    if (!url) {
      if (fn === "(garbage collector)") return "GC";
      if (fn === "(program)" || fn === "(idle)" || fn === "(root)") return fn;
      return `native builtins`;
    }
    return "other JS";
  };
  let t = p.startTime;
  const self = new Map(), areas = new Map(), incl = new Map();
  let total = 0;
  const dts = p.timeDeltas;
  for (let i = 0; i < p.samples.length; i++) {
    t += dts[i];
    const dt = dts[i + 1] ?? 0;
    if (t < window.start || t > window.end) continue;
    total += dt;
    const leaf = byId.get(p.samples[i]);
    const f = frame(leaf);
    self.set(f, (self.get(f) ?? 0) + dt);
    const a = area(leaf);
    areas.set(a, (areas.get(a) ?? 0) + dt);
    const seen = new Set();
    for (let id = leaf.id; id !== undefined; id = parent.get(id)) {
      const g = frame(byId.get(id));
      if (!seen.has(g)) {
        seen.add(g);
        incl.set(g, (incl.get(g) ?? 0) + dt);
      }
    }
  }
  const rank = (m, k = 30) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([name, us]) => ({ name, share: us / total, usPerRun: us / window.runs }));
  return { totalMs: total / 1000, runs: window.runs, msPerRun: window.msPerRun, areas: rank(areas, 40), self: rank(self, 40), inclusive: rank(incl, 400) };
}

async function main() {
  fs.mkdirSync(outDir, { recursive: true });
  if (!process.env.SKIP_BUILD || !fs.existsSync(path.join(named, "toolnexus_wasm_bg.wasm"))) build();
  instrument();
  const counts = JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url), "count"], { maxBuffer: 64 << 20 }).toString());
  const profiles = {};
  for (const h of [0, 100]) {
    const dir = path.join(outDir, `cpu-h${h}`);
    fs.rmSync(dir, { recursive: true, force: true });
    execFileSync(process.execPath, ["--cpu-prof", "--cpu-prof-dir", dir, "--cpu-prof-interval", "50", fileURLToPath(import.meta.url), "cpu"], {
      env: { ...process.env, HISTORY: String(h), PROFILE_RUNS: String(h ? 1000 : 4000) }, stdio: "inherit",
    });
    const file = path.join(dir, fs.readdirSync(dir).find((f) => f.endsWith(".cpuprofile")));
    profiles[`h${h}`] = { file: path.relative(root, file), ...analyse(file, JSON.parse(fs.readFileSync(path.join(outDir, `window-h${h}.json`)))) };
  }
  const out = { date: new Date().toISOString(), node: process.version, counts, profiles };
  fs.writeFileSync(process.env.PROF_DIR ? path.join(outDir, "profile.json") : path.join(here, "out", "profile.json"), JSON.stringify(out, null, 2));
  report(out);
}

function report({ counts, profiles }) {
  const f1 = (x) => (Math.round(x * 10) / 10).toString();
  for (const [k, c] of Object.entries(counts)) {
    const line = [`promises ${f1(c.promises)}`, `JSON.parse ${f1(c.json.parse)} (${f1(c.json.parseChars)} chars)`, `JSON.stringify ${f1(c.json.stringify)} (${f1(c.json.stringifyChars)} chars)`,
      `Response.text ${f1(c.response.text ?? 0)} .json ${f1(c.response.json ?? 0)}`];
    if (c.crossings) {
      line.push(`wasm→JS calls ${f1(c.crossings.wasmToJs)}, JS→wasm calls ${f1(c.crossings.jsToWasm)}`,
        `strings into wasm ${f1(c.stringsToWasm.n)} (${f1(c.stringsToWasm.units)} units), out of wasm ${f1(c.stringsFromWasm.n)} (${f1(c.stringsFromWasm.bytes)} bytes)`);
    }
    console.log(`per run, ${k}: ${line.join("; ")}`);
    if (c.imports) {
      const short = (n) => n.replace(/^__wbg_/, "").replace(/_[0-9a-f]{16}$/, "");
      console.log(`  imports: ${Object.entries(c.imports).map(([n, v]) => `${short(n)} ${f1(v)}`).join(", ")}`);
      console.log(`  exports: ${Object.entries(c.exports).map(([n, v]) => `${n.replace(/_____invoke__h[0-9a-f]+$/, "")} ${f1(v)}`).join(", ")}`);
      console.log(`  string sizes into wasm ${JSON.stringify(c.stringsToWasm.bySize)}, out ${JSON.stringify(c.stringsFromWasm.bySize)}`);
    }
  }
  for (const [k, p] of Object.entries(profiles)) {
    console.log(`\nprofile ${k}: ${p.runs} runs, ${p.msPerRun.toFixed(3)} ms per run under the profiler (${p.file})`);
    const pct = (x) => `${(x.share * 100).toFixed(1).padStart(5)} %  ${x.usPerRun.toFixed(1).padStart(6)} µs`;
    console.log("  by area (self time):");
    for (const x of p.areas.slice(0, 16)) console.log(`    ${pct(x)}  ${x.name}`);
    console.log("  top frames (self time):");
    for (const x of p.self.slice(0, 20)) console.log(`    ${pct(x)}  ${x.name.replace(/::h[0-9a-f]{16}/g, "")}`);
    // The frames that say where a run goes: the package's own functions, the futures machinery,
    // and the mock's share (the floor every variant pays).
    const key = /toolnexus_wasm::|JsFuture|Promise::new|makeMutClosure|getStringFromWasm0|passStringToWasm0|^mockFetch|^text node:|^(getWeather|getTime) |garbage/;
    console.log("  key frames (inclusive time):");
    for (const x of p.inclusive.filter((x) => key.test(x.name)).slice(0, 40)) console.log(`    ${pct(x)}  ${x.name.replace(/::h[0-9a-f]{16}/g, "").slice(0, 150)}`);
  }
}
