// examples/extension with an MCP server added by URL on its options page, in Chromium
// (Playwright): the service worker lists the server's tools (an official-SDK server on
// 127.0.0.1), the model calls one, and after Chrome stops the worker the next one rebuilds the
// tools from the listing it kept in chrome.storage.local, without listing again.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { startServer } from "./servers.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const { chromium } = createRequire(path.join(repo, "tools/js/package.json"))("playwright-core");

let mcp, context, root;
before(async () => {
  mcp = await startServer({});
  root = fs.mkdtempSync(path.join(os.tmpdir(), "tnx-ext-mcp-"));
  const extDir = path.join(root, "ext");
  fs.cpSync(path.join(repo, "examples/extension"), extDir, { recursive: true });
  fs.cpSync(path.join(repo, "pkg"), path.join(extDir, "pkg"), { recursive: true });
  fs.copyFileSync(path.join(repo, "demo/scripted-logic.mjs"), path.join(extDir, "scripted-logic.mjs"));
  fs.copyFileSync(path.join(repo, "demo/transcript.mjs"), path.join(extDir, "transcript.mjs")); // the side panel's (scripts/copy-pkg.sh)
  context = await chromium.launchPersistentContext(path.join(root, "profile"), {
    executablePath: "/usr/bin/chromium", headless: true, ignoreDefaultArgs: ["--disable-extensions"],
    args: [`--disable-extensions-except=${extDir}`, `--load-extension=${extDir}`, "--no-sandbox", "--disable-gpu", "--disable-quic",
      "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"],
  });
});
after(async () => { await context?.close(); await mcp?.close(); fs.rmSync(root, { recursive: true, force: true }); });

async function ask(panel, prompt) {
  await panel.evaluate(() => { delete document.body.dataset.status; });
  await panel.fill("#prompt", prompt);
  await panel.click("form button");
  await panel.waitForFunction(() => document.body.dataset.status === "done", null, { timeout: 15_000 }).catch(async () => {
    throw new Error(`no answer; the panel shows: ${await panel.textContent("body")}`);
  });
  return panel.evaluate(() => document.body.dataset.answer);
}

test("an MCP server added by URL in the extension; its tools survive a worker restart as data", async () => {
  const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker"));
  const extId = new URL(sw.url()).host;
  const options = await context.newPage();
  await options.goto(`chrome-extension://${extId}/options.html`);
  await options.fill("#mcpName", "docs");
  await options.fill("#mcpUrl", mcp.url);
  await options.click("#addServer");
  await options.waitForSelector("#servers li");

  const panel = await context.newPage();
  await panel.goto(`chrome-extension://${extId}/panel.html`);
  assert.equal(await ask(panel, "#docs"), "The MCP server says: docs_echo → echo: from the extension");
  assert.equal(mcp.log.requests.filter((r) => r.rpc === "tools/list").length, 3, "listed once (three pages)");
  const kept = await options.evaluate(async () => (await chrome.storage.local.get("mcpSources")).mcpSources.docs);
  assert.equal(kept.tools.length, 6);

  // Chrome stops the worker; the next one rebuilds the tools from the kept listing.
  const cdp = await context.newCDPSession(panel);
  const versions = new Map();
  cdp.on("ServiceWorker.workerVersionUpdated", (e) => { for (const v of e.versions) versions.set(v.versionId, v); });
  await cdp.send("ServiceWorker.enable");
  await new Promise((r) => setTimeout(r, 200));
  for (const v of [...versions.values()].filter((v) => v.runningStatus === "running" && v.scriptURL.endsWith("/sw.js"))) {
    await cdp.send("ServiceWorker.stopWorker", { versionId: v.versionId });
  }
  for (let i = 0; i < 50 && [...versions.values()].some((v) => v.runningStatus === "running"); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(versions.size > 0 && ![...versions.values()].some((v) => v.runningStatus === "running"), "the worker stopped");
  // A fresh panel connects at once and wakes a new worker (the old page's port reconnects later).
  await panel.reload();
  await panel.click("#reset");
  await panel.waitForFunction(() => !document.getElementById("chat").textContent.includes("#docs"), null, { timeout: 10_000 });
  assert.equal(await ask(panel, "#docs"), "The MCP server says: docs_echo → echo: from the extension");
  assert.equal(mcp.log.requests.filter((r) => r.rpc === "tools/list").length, 3, "not listed again");
  assert.equal(mcp.log.calls.length, 2);
});
