// The package itself: every entry point exists, nothing shipped uses eval / new Function (MV3
// refuses them), and the size stays inside the budget.
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../pkg");
const manifest = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8"));

/** The JS files the browser entry loads: index.js and what it imports, followed (as scripts/size.sh counts them). */
function browserFiles() {
  const seen = new Set();
  const follow = (f) => {
    if (seen.has(f)) return;
    assert.ok(fs.existsSync(path.join(pkgDir, f)), `${f}, imported by the browser entry, is shipped`);
    seen.add(f);
    for (const [, spec] of fs.readFileSync(path.join(pkgDir, f), "utf8").matchAll(/(?:\bfrom|\bimport)\s*["'](\.\.?\/[^"']+)["']/g)) {
      follow(path.normalize(path.join(path.dirname(f), spec)));
    }
  };
  follow("index.js");
  return [...seen];
}

test("every file the manifest ships or exports exists", () => {
  for (const f of manifest.files) assert.ok(fs.existsSync(path.join(pkgDir, f)), f);
  // every target of every entry, through nested conditions ({ node: { require, default } })
  const targets = (v) => (typeof v === "string" ? [v] : Object.values(v).flatMap(targets));
  for (const target of targets(manifest.exports)) assert.ok(fs.existsSync(path.join(pkgDir, target)), target);
  assert.deepEqual(targets(manifest.exports["."].types), ["./index.d.cts", "./index.d.ts", "./index.d.ts"]);
  assert.equal(Object.keys(manifest.exports["."])[0], "types");
  assert.ok(Object.keys(manifest.exports["."]).indexOf("workerd") < Object.keys(manifest.exports["."]).indexOf("browser"));
});

test("no eval or new Function anywhere in the shipped JavaScript", () => {
  const js = manifest.files.filter((f) => f.endsWith(".js"));
  assert.ok(js.length >= 4);
  for (const f of js) {
    const src = fs.readFileSync(path.join(pkgDir, f), "utf8");
    assert.doesNotMatch(src, /\beval\s*\(/, f);
    assert.doesNotMatch(src, /new\s+Function\s*\(/, f);
    assert.doesNotMatch(src, /\bFunction\s*\(\s*["'`]/, f);
  }
  // the browser entry must not reach for Node built-ins, nor the workerd one
  const loaded = browserFiles();
  assert.ok(loaded.includes("exports.js"), "the browser entry loads the JS-written API");
  for (const f of ["workerd.js", ...loaded]) {
    assert.doesNotMatch(fs.readFileSync(path.join(pkgDir, f), "utf8"), /from\s+["']node:|require\(/, f);
  }
});

test("the package is within its 144 KiB gzip budget", () => {
  const gz = (f) => zlib.gzipSync(fs.readFileSync(path.join(pkgDir, f)), { level: 9 }).length;
  // everything the browser entry loads: the wasm, the JS files it imports (its glue, the API's
  // files, loader.js) and the glue's snippets
  const snippets = fs.readdirSync(path.join(pkgDir, "snippets"), { recursive: true }).filter((f) => f.endsWith(".js")).map((f) => path.join("snippets", f));
  assert.ok(snippets.length > 0, "the edge's JS helpers ship as snippets");
  const loaded = browserFiles();
  assert.ok(loaded.includes("toolnexus_wasm.js") && loaded.includes("loader.js") && snippets.every((f) => loaded.includes(f)), loaded.join(", "));
  const total = ["toolnexus_wasm_bg.wasm", ...new Set([...loaded, ...snippets])].reduce((n, f) => n + gz(f), 0);
  assert.ok(total <= 144 * 1024, `${total} bytes gzip`);
});

test("the default entry has translate; toolnexus-wasm/full is an alias of it", async () => {
  assert.deepEqual(manifest.exports["./full"], manifest.exports["."]);
  const full = await import("toolnexus-wasm/full");
  const main = await import("toolnexus-wasm");
  assert.equal(full.createClient, main.createClient, "one module instance, not a second build");
  const opts = { baseUrl: "http://m/v1", style: "openai", model: "m", apiKey: "k", fetch: async () => new Response(JSON.stringify({ choices: [{ message: { role: "assistant", content: "hi" }, finish_reason: "stop" }] })) };
  const r = await main.createClient(opts).translate({ messages: [{ role: "user", content: "hello" }] });
  assert.deepEqual([r.text, r.finishReason, r.toolCalls], ["hi", "stop", []]);
  const chunks = [];
  const s = main.createClient({ ...opts, fetch: async () => new Response('data: {"choices":[{"index":0,"delta":{"content":"yo"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n') });
  for await (const c of s.translateStream({ messages: [{ role: "user", content: "hello" }] })) chunks.push(c);
  assert.equal(chunks[0].object, "chat.completion.chunk");
  assert.equal(chunks.map((c) => c.choices[0]?.delta?.content ?? "").join(""), "yo");
});

// An uncaught error in Node prints the offending line of source: a minified file on one line
// would print the whole glue (15 KB) with it.
test("the shipped JavaScript keeps short lines, so an error prints a readable line", () => {
  const js = fs.readdirSync(pkgDir, { recursive: true }).filter((f) => f.endsWith(".js"));
  assert.ok(js.length >= 8);
  for (const f of js) {
    const longest = Math.max(...fs.readFileSync(path.join(pkgDir, f), "utf8").split("\n").map((l) => l.length));
    assert.ok(longest <= 400, `${f}: a line of ${longest} characters`);
  }
});
