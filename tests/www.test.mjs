// The www page in headless Chromium: the browser entry loads the wasm with `init()`, runs the loop
// against the in-page scripted model, approves relay calls, and resumes a halted run from JSON.
import test from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };

test("the www demo page runs both flows in headless Chromium", async () => {
  const server = http.createServer((req, res) => {
    const file = path.join(root, decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (!file.startsWith(root) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) { res.writeHead(404); return res.end(); }
    res.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${server.address().port}/www/index.html?auto=1`;
  try {
    const dom = await new Promise((resolve, reject) => execFile("/usr/bin/chromium", [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
      `--user-data-dir=${fs.mkdtempSync("/tmp/tnx-www-")}`, "--virtual-time-budget=20000", "--dump-dom", url,
    ], { timeout: 60_000 }, (err, stdout) => (err ? reject(err) : resolve(stdout))));
    const result = /data-result="([^"]*)"/.exec(dom)?.[1];
    assert.ok(result, `no result in the page:\n${dom.slice(0, 2000)}`);
    const expected = "Done. lookup_price → $12.50; click → clicked #add-to-cart";
    assert.equal(result.replaceAll("&amp;", "&"), `openai:done:done:${expected}|anthropic:done:done:${expected}`);
  } finally {
    server.close();
  }
});
