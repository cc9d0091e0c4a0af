// The package README's tab-tools service worker (<!-- quickstart: browser-sw -->), as written,
// bundled with esbuild (toolnexus-wasm and toolnexus-wasm/browser by name) and loaded in
// Chromium: a page of this extension connects a port as the README says, sends a prompt, and
// answers the approvals; the scripted model (demo/scripted-model.mjs, `baseUrl` in storage as
// the README reads it) fills the fixture form in the active tab through the kit.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { block, quickstarts } from "../quickstart/readme.mjs";
import { startScriptedModel } from "../../demo/scripted-model.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const requireTools = createRequire(path.join(repo, "tools/js/package.json"));
const { chromium } = requireTools("playwright-core");
const esbuild = requireTools("esbuild");

let context, root, server, origin, model;
before(async () => {
  model = await startScriptedModel();
  server = http.createServer((req, res) => res.writeHead(200, { "content-type": "text/html" }).end(fs.readFileSync(path.join(here, "pages/form.html"))));
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${server.address().port}`;
  root = fs.mkdtempSync(path.join(os.tmpdir(), "tnx-browser-readme-"));
  const ext = path.join(root, "ext");
  fs.mkdirSync(ext);
  fs.writeFileSync(path.join(root, "sw.src.js"), block(quickstarts(path.join(repo, "pkg-template/README.md")), "browser-sw", "js"));
  fs.mkdirSync(path.join(root, "node_modules"));
  fs.symlinkSync(path.join(repo, "pkg"), path.join(root, "node_modules/toolnexus-wasm"));
  await esbuild.build({ entryPoints: [path.join(root, "sw.src.js")], bundle: true, format: "esm", outfile: path.join(ext, "sw.js"), logLevel: "warning" });
  fs.copyFileSync(path.join(repo, "pkg/toolnexus_wasm_bg.wasm"), path.join(ext, "toolnexus_wasm_bg.wasm"));
  const manifest = JSON.parse(fs.readFileSync(path.join(here, "ext/manifest.json"), "utf8"));
  fs.writeFileSync(path.join(ext, "manifest.json"), JSON.stringify(manifest));
  fs.writeFileSync(path.join(ext, "ctl.html"), "<!doctype html><title>ready</title>");
  context = await chromium.launchPersistentContext(path.join(root, "profile"), {
    executablePath: "/usr/bin/chromium", headless: true, ignoreDefaultArgs: ["--disable-extensions"],
    args: [`--disable-extensions-except=${ext}`, `--load-extension=${ext}`, "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"],
  });
});
after(async () => { await context?.close(); server?.close(); await model?.close(); if (root) fs.rmSync(root, { recursive: true, force: true }); });

test("the README's service worker fills the form in the active tab, asking before it types and clicks", async () => {
  const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker"));
  const ctl = await context.newPage();
  await ctl.goto(`chrome-extension://${new URL(sw.url()).host}/ctl.html`);
  const tab = await context.newPage();
  await tab.goto(`${origin}/form.html`);
  const out = await ctl.evaluate(async ([url, baseUrl]) => {
    await chrome.storage.local.set({ apiKey: "offline", baseUrl });
    const [t] = await chrome.tabs.query({ url });
    await chrome.tabs.update(t.id, { active: true });
    await chrome.windows.update(t.windowId, { focused: true });
    const port = chrome.runtime.connect({ name: "panel" });
    const asked = [];
    const text = await new Promise((resolve) => {
      let answer = "";
      port.onMessage.addListener((m) => {
        if (m.type === "approve") { asked.push(...m.asks); port.postMessage({ type: "approved", approved: true }); }
        if (m.type === "text") answer += m.delta;
        if (m.type === "done") resolve(m.result.text ?? answer);
      });
      port.postMessage({ type: "prompt", prompt: "#browser-form sign me up" });
    });
    return { text, asked };
  }, [`${origin}/form.html`, `${model.url}/v1`]);
  assert.match(out.text, /^I filled in the form\. The page says: <<untrusted-page-content [0-9a-f]{8} origin=http:\/\/127\.0\.0\.1:\d+>>\n[\s\S]*Thanks, Ada!/);
  assert.deepEqual(out.asked, [`browser_type textbox "Your name" on ${origin}`, `browser_click button "Send" on ${origin}`]);
  assert.equal(await tab.textContent("#thanks"), "Thanks, Ada!");
});
