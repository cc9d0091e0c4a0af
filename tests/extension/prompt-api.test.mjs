// toolnexus-wasm/prompt-api in Chromium (Playwright), in an extension page and an MV3 service
// worker, over the scripted LanguageModel of tests/js/fake-language-model.mjs: native open-loop
// tool calls, constrained ones, and the fallback (the scripted cloud model over HTTP), each
// with three parallel relay calls answered in place; then a durable halt whose worker is
// stopped, resumed by a fresh worker that rebuilds the session from chrome.storage.local.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { startScriptedModel } from "../../demo/scripted-model.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const { chromium } = createRequire(path.resolve(here, "../../tools/js/package.json"))("playwright-core");

let model, root, context, page, cdp;
const versions = new Map();
before(async () => {
  model = await startScriptedModel();
  root = fs.mkdtempSync(path.join(os.tmpdir(), "tnx-prompt-"));
  const extDir = path.join(root, "ext");
  fs.cpSync(path.join(here, "prompt-ext"), extDir, { recursive: true });
  fs.cpSync(path.resolve(here, "../../pkg"), path.join(extDir, "pkg"), { recursive: true });
  fs.copyFileSync(path.resolve(here, "../js/fake-language-model.mjs"), path.join(extDir, "fake-language-model.mjs"));
  context = await chromium.launchPersistentContext(path.join(root, "profile"), {
    executablePath: "/usr/bin/chromium", headless: true, ignoreDefaultArgs: ["--disable-extensions"],
    args: [`--disable-extensions-except=${extDir}`, `--load-extension=${extDir}`, "--no-sandbox", "--disable-gpu",
      "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"],
  });
  const sw = context.serviceWorkers().find((w) => w.url().endsWith("/sw.js")) ?? await context.waitForEvent("serviceworker", { timeout: 20_000 });
  page = await context.newPage();
  await page.goto(`chrome-extension://${new URL(sw.url()).host}/page.html`);
  await page.waitForFunction(() => document.title == "ready");
  cdp = await context.newCDPSession(page);
  cdp.on("ServiceWorker.workerVersionUpdated", (e) => { for (const v of e.versions) versions.set(v.versionId, v); });
  await cdp.send("ServiceWorker.enable");
});
after(async () => { await context?.close(); await model?.close(); if (root) fs.rmSync(root, { recursive: true, force: true }); });

async function inWorker(cmd, cfg) {
  const r = await page.evaluate(([cmd, cfg]) => chrome.runtime.sendMessage({ cmd, cfg }), [cmd, cfg]);
  if (r?.error) throw new Error(r.error);
  return r.value;
}
const inPage = (cmd, cfg) => page.evaluate(([cmd, cfg]) => window.run(cmd, cfg), [cmd, cfg]);

const expected = {
  native: "Results: clicked #a in place; clicked #b in place; clicked #c in place",
  constrained: "Results: clicked #a in place; clicked #b in place; clicked #c in place",
  fallback: "Clicked: click → clicked #a in place; click → clicked #b in place; click → clicked #c in place",
};

for (const [where, run] of [["an extension page", inPage], ["the service worker", inWorker]]) {
  test(`${where}: native, constrained and fallback each answer three parallel relay calls in place`, async () => {
    for (const scenario of ["native", "constrained", "fallback"]) {
      const r = await run("inPlace", { scenario, fallbackUrl: `${model.url}/v1` });
      assert.equal(r.mode, scenario);
      assert.equal(r.status, "done", JSON.stringify(r));
      assert.equal(r.text, expected[scenario]);
      if (scenario != "fallback") assert.equal(r.prompts, 2, "one session prompt per model turn");
    }
  });
}

test("a durable halt on three calls, the worker stopped, a fresh worker rebuilds the session from the transcript", async () => {
  for (const scenario of ["native", "constrained"]) {
    const cfg = { scenario, id: `halt-${scenario}`, fallbackUrl: `${model.url}/v1` };
    const halted = await inWorker("halt", cfg);
    assert.deepEqual([halted.mode, halted.status, halted.selectors], [scenario, "pending", ["#a", "#b", "#c"]]);
    const running = [...versions.values()].filter((v) => v.runningStatus == "running" && v.scriptURL.endsWith("/sw.js"));
    assert.equal(running.length, 1);
    await cdp.send("ServiceWorker.stopWorker", { versionId: running[0].versionId });
    for (let i = 0; i < 50 && [...versions.values()].some((v) => v.runningStatus == "running"); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(![...versions.values()].some((v) => v.runningStatus == "running"), "the worker stopped");
    const resumed = await inWorker("resume", cfg);
    assert.notEqual(resumed.bootId, halted.bootId, "a new service worker resumed");
    assert.equal(resumed.status, "done");
    assert.equal(resumed.text, "Results: clicked #a after restart; clicked #b after restart; clicked #c after restart");
    assert.equal(resumed.initialPrompts, 3, "system, user and the assistant's three calls as initialPrompts");
  }
});
