// The www demo page adds an MCP server by URL (an official-SDK server on another origin, with
// CORS) and the scripted model uses its tool, in headless Chromium (Playwright).
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { serveRepository } from "../../demo/serve.mjs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { startServer } from "./servers.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const { chromium } = createRequire(path.join(root, "tools/js/package.json"))("playwright-core");
let server, browser, url, mcp;

before(async () => {
  server = await serveRepository(0);
  url = `http://127.0.0.1:${server.address().port}/www/index.html`;
  mcp = await startServer({ cors: true });
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"] });
});
after(async () => { await browser?.close(); server?.close(); await mcp?.close(); });

test("www: an MCP server added by URL; the model uses its tool", async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(url);
  await page.click("#mcp summary");
  await page.fill("#mcpName", "docs");
  await page.fill("#mcpUrl", mcp.url);
  await page.click("#mcpAdd");
  await page.waitForFunction(() => /tools:/.test(document.getElementById("mcpStatus").textContent), null, { timeout: 10_000 }).catch(async () => {
    throw new Error(`not connected: ${await page.textContent("#mcpStatus")}`);
  });
  assert.match(await page.textContent("#mcpStatus"), /^6 tools: docs_echo, docs_add/);
  await page.fill("#prompt", "#docs");
  await page.click("#ask button");
  await page.waitForFunction(() => document.body.dataset.status === "done", null, { timeout: 10_000 });
  assert.equal(await page.evaluate(() => document.body.dataset.answer), "The MCP server says: docs_echo → echo: from the page");
  // `server/discover` (this older server refuses it) and `initialize` go without a session;
  // everything after carries the one the server gave, read across origins.
  const later = mcp.log.requests.filter((r) => r.rpc !== "server/discover" && r.rpc !== "initialize");
  assert.ok(later.length > 0 && later.every((r) => typeof r.session === "string"), "the session id was readable across origins");
  assert.deepEqual(errors, []);
});
