// Keys stay on their origin in a real browser (headless Chromium through Playwright, skipped where
// /usr/bin/chromium is absent): under `redirect: "manual"` Chromium hides a provider's redirect
// behind an opaque response; the package refuses it as a network error (`transport`, "redirect
// refused"), and the origin the redirect names never sees a request, let alone the key.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CHROMIUM = "/usr/bin/chromium";
const skip = !fs.existsSync(CHROMIUM) && "no Chromium here";
const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };
let page, browser, other, site;
const otherHits = [];
const siteHits = [];

async function listen(handler) {
  const server = http.createServer(handler);
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}

before(async () => {
  if (skip) return;
  other = await listen((req, res) => { otherHits.push({ url: req.url, headers: req.headers }); res.writeHead(200, { "access-control-allow-origin": "*" }); res.end("{}"); });
  // One origin serves the page, the package and the "provider", which redirects elsewhere.
  site = await listen((req, res) => {
    const p = new URL(req.url, "http://x").pathname;
    if (p.startsWith("/provider/")) {
      siteHits.push({ url: req.url, headers: req.headers });
      res.writeHead(307, { location: `${other.url}${p}` });
      return res.end();
    }
    if (p === "/") { res.writeHead(200, { "content-type": "text/html" }); return res.end("<!doctype html><title>origin</title>"); }
    const file = path.join(root, "pkg", p.replace(/^\/pkg\//, ""));
    if (!p.startsWith("/pkg/") || !fs.existsSync(file) || fs.statSync(file).isDirectory()) { res.writeHead(404); return res.end(); }
    res.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  const { chromium } = createRequire(path.join(root, "tools/js/package.json"))("playwright-core");
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"] });
  page = await browser.newPage();
  await page.goto(`${site.url}/`);
});
after(async () => { await browser?.close(); site?.server.close(); other?.server.close(); });

test("Chromium: a provider's redirect is refused and the key never reaches the other origin", { skip }, async () => {
  for (const style of ["openai", "anthropic", "gemini"]) {
    const out = await page.evaluate(async (style) => {
      const m = await import("/pkg/index.js");
      await m.init();
      const client = m.createClient({ baseUrl: `${location.origin}/provider${style === "openai" ? "/v1" : ""}`, style, model: "m", apiKey: "sk-browser-secret", retries: 0 });
      try {
        await client.run("hi");
        return { ok: true };
      } catch (e) {
        return { code: e.code, message: e.message };
      }
    }, style);
    assert.equal(out.code, "transport", `${style}: ${JSON.stringify(out)}`);
    assert.match(out.message, /redirect refused/);
  }
  assert.equal(siteHits.length, 3, "each provider call reached the configured origin once");
  assert.ok(siteHits.every((h) => JSON.stringify(h.headers).includes("sk-browser-secret")));
  assert.equal(otherHits.length, 0, `the other origin saw ${JSON.stringify(otherHits)}`);
});
