// The browser kit's page snapshot (toolnexus-wasm/browser, issue 35) against a plain
// `document.body.innerText` dump, per fixture page of tests/browser/pages/, in headless Chromium
// (Playwright): bytes of text the model would read, and milliseconds to make it (p50 of RUNS
// in the page). The snapshot is the built package's page side (pkg/browser-page.js), run as the
// kit injects it. Also the subpath's gzip size (each of its files gzipped on its own).
//
//   ./scripts/build.sh && node bench/snapshot.mjs
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..");
const pkg = path.resolve(process.env.TOOLNEXUS_PKG ?? path.join(repo, "pkg"));
const pages = path.join(repo, "tests/browser/pages");
const { chromium } = createRequire(path.join(repo, "tools/js/package.json"))("playwright-core");
const { pageAgent } = await import(path.join(pkg, "browser-page.js"));
const RUNS = Number(process.env.RUNS ?? 30);

const server = http.createServer((req, res) => {
  const file = path.join(pages, path.basename(new URL(req.url, "http://x").pathname));
  if (!fs.existsSync(file)) return res.writeHead(404).end();
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(fs.readFileSync(file));
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: ["--no-sandbox", "--disable-gpu"] });
const page = await browser.newPage();
const source = pageAgent.toString();

console.log(`| page | snapshot B | snapshot ms (p50) | refs | innerText B | innerText ms (p50) |`);
console.log(`|---|---:|---:|---:|---:|---:|`);
for (const name of ["form.html", "shop.html", "changing.html", "frame.html", "hostile.html", "slow.html", "webmcp.html"]) {
  await page.goto(`${origin}/${name}`);
  await page.waitForLoadState("load");
  const r = await page.evaluate(async ([src, runs]) => {
    const agent = (0, eval)(`(${src})`);
    const p50 = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const snap = [], dump = [];
    let text = "", inner = "";
    for (let i = 0; i < runs; i++) {
      delete globalThis.__toolnexusPage; // a fresh document's first snapshot each time
      let t = performance.now();
      text = (await agent("snapshot", {}, { maxChars: 12000 })).value.text;
      snap.push(performance.now() - t);
      t = performance.now();
      inner = document.body.innerText;
      dump.push(performance.now() - t);
    }
    const enc = (s) => new TextEncoder().encode(s).length;
    return { bytes: enc(text), ms: p50(snap), refs: (text.match(/\[ref=/g) ?? []).length, innerBytes: enc(inner), innerMs: p50(dump) };
  }, [source, RUNS]);
  console.log(`| ${name} | ${r.bytes} | ${r.ms.toFixed(2)} | ${r.refs} | ${r.innerBytes} | ${r.innerMs.toFixed(2)} |`);
}
// A larger page: the shop's product list grown to 300 items (the snapshot is capped at 12,000 characters).
await page.goto(`${origin}/shop.html`);
await page.evaluate(() => { const ul = document.getElementById("products"); for (let i = 0; i < 100; i++) for (const li of [...ul.children].slice(0, 3)) ul.append(li.cloneNode(true)); });
const big = await page.evaluate(async (src) => {
  const agent = (0, eval)(`(${src})`);
  let t = performance.now();
  const text = (await agent("snapshot", {}, { maxChars: 12000 })).value.text;
  const ms = performance.now() - t;
  t = performance.now();
  const inner = document.body.innerText;
  return { bytes: text.length, ms, innerBytes: inner.length, innerMs: performance.now() - t };
}, source);
console.log(`| shop.html × 100 (303 products) | ${big.bytes} (capped) | ${big.ms.toFixed(2)} | — | ${big.innerBytes} | ${big.innerMs.toFixed(2)} |`);
await browser.close();
server.close();

const gz = (f) => zlib.gzipSync(fs.readFileSync(path.join(pkg, f)), { level: 9 }).length;
const files = ["browser.js", "browser-tab.js", "browser-page.js"];
console.log(`\ntoolnexus-wasm/browser: ${files.map((f) => `${f} ${gz(f)} B`).join(", ")}; ${files.reduce((n, f) => n + gz(f), 0)} B gzip in all (on top of the default entry)`);
