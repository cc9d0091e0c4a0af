// toolnexus-wasm/browser in headless Firefox ESR through geckodriver: the test extension of
// kit.test.mjs (its worker module run as Firefox's MV3 event page) as a temporary add-on, the
// scripted model driving the fixture pages through the kit: the form, a stale ref's typed
// error, the hostile page (the navigation asks and is declined), the page's own tools.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { startFirefox, firefoxVersion, tempDir } from "../firefox/webdriver.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const esbuild = createRequire(path.join(repo, "tools/js/package.json"))("esbuild");
const GECKO_ID = "browser-kit-test@example.org";
const UUID = crypto.randomUUID();

let server, origin, ff, root, ctlTab;
before(async () => {
  console.log(`# ${firefoxVersion()}`);
  server = http.createServer((req, res) => {
    const file = path.join(here, "pages", path.basename(new URL(req.url, "http://x").pathname));
    if (!fs.existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(fs.readFileSync(file));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${server.address().port}`;
  root = tempDir("tnx-browser-ff-");
  const ext = path.join(root, "ext");
  fs.mkdirSync(ext);
  for (const f of ["ctl.html", "ctl.js"]) fs.copyFileSync(path.join(here, "ext", f), path.join(ext, f));
  fs.copyFileSync(path.join(repo, "demo/scripted-logic.mjs"), path.join(ext, "scripted-logic.mjs"));
  fs.mkdirSync(path.join(root, "node_modules"));
  fs.symlinkSync(path.join(repo, "pkg"), path.join(root, "node_modules/toolnexus-wasm"));
  await esbuild.build({ entryPoints: [path.join(here, "ext/sw.src.js")], bundle: true, format: "esm", outfile: path.join(ext, "sw.js"),
    logLevel: "warning", nodePaths: [path.join(root, "node_modules")], external: ["./scripted-logic.mjs"] });
  fs.copyFileSync(path.join(repo, "pkg/toolnexus_wasm_bg.wasm"), path.join(ext, "toolnexus_wasm_bg.wasm"));
  // Firefox's MV3 background is an event page running the same module.
  const { background, ...manifest } = JSON.parse(fs.readFileSync(path.join(here, "ext/manifest.json"), "utf8"));
  fs.writeFileSync(path.join(ext, "manifest.json"), JSON.stringify({ ...manifest, background: { scripts: [background.service_worker], type: "module" },
    browser_specific_settings: { gecko: { id: GECKO_ID, strict_min_version: "128.0" } } }));
  ff = await startFirefox({ systemAccess: true, prefs: { "extensions.webextensions.uuids": JSON.stringify({ [GECKO_ID]: UUID }) } });
  await ff.installTemporaryAddon(ext);
  await ff.goto(`${origin}/slow.html`); // the first tab may not open an extension page
  ctlTab = await ff.newTab();
  await ff.switchTo(ctlTab);
  await ff.goto(`moz-extension://${UUID}/ctl.html`);
  await ff.waitFor("return document.title === 'ready'");
  // Firefox asks the user for host permissions of an MV3 add-on; a test grants them as the user would.
  await ff.run("await chrome.permissions.request({ origins: ['<all_urls>'] }).catch(() => false);");
});
after(async () => { await ff?.quit(); server?.close(); if (root) fs.rmSync(root, { recursive: true, force: true }); });

const command = (cmd, cfg) => ff.run("return await globalThis.command(args[0], args[1]);", cmd, cfg);
let runs = 0;

/** A new tab on fixture `page`; back in the control tab, the page's tab id. */
async function open(page) {
  const handle = await ff.newTab();
  await ff.switchTo(handle);
  await ff.goto(`${origin}/${page}`);
  await ff.switchTo(ctlTab);
  const tabId = await ff.run("return (await chrome.tabs.query({})).find((t) => t.url === args[0])?.id;", `${origin}/${page}`);
  assert.equal(typeof tabId, "number");
  return { handle, tabId };
}
const inTab = async (handle, script) => { await ff.switchTo(handle); try { return await ff.execute(script); } finally { await ff.switchTo(ctlTab); } };

test("Firefox: the form through the kit, a stale ref's typed error, the hostile page, the page's own tools", async () => {
  const perms = await ff.run("return await chrome.permissions.contains({ origins: ['<all_urls>'] });");
  assert.ok(perms, "host permissions granted");
  const form = await open("form.html");
  const r = await command("run", { id: `ff${++runs}`, prompt: "#browser-form", tabId: form.tabId, policy: "allow" });
  assert.equal(r.status, "done", JSON.stringify(r));
  assert.match(r.text, /^I filled in the form\. The page says: <<untrusted-page-content [0-9a-f]{8} origin=[^\n]*\n[\s\S]*Thanks, Ada!/);
  assert.deepEqual(r.asked.map((a) => `${a.name} ${a.element}`), ['browser_type textbox "Your name"', 'browser_click button "Send"']);
  assert.equal(await inTab(form.handle, "return document.querySelector('#thanks').textContent"), "Thanks, Ada!");

  const snap = await command("call", { tabId: form.tabId, name: "snapshot" });
  const ref = /button "Send"[^\n]*\[ref=(e\d+)\]/.exec(snap.output)[1];
  await inTab(form.handle, "location.reload()");
  await new Promise((res) => setTimeout(res, 500));
  const stale = await command("call", { tabId: form.tabId, name: "click", input: { ref } });
  assert.deepEqual([stale.ok, stale.isToolnexusError, stale.code], [false, true, "stale_ref"]);

  const hostile = await open("hostile.html");
  const h = await command("run", { id: `ff${++runs}`, prompt: "#browser-hostile", tabId: hostile.tabId, policy: "decline" });
  assert.deepEqual(h.asked.map((a) => a.name), ["browser_navigate"]);
  assert.match(h.text, /declined: the person did not allow browser_navigate/);
  assert.equal(await inTab(hostile.handle, "return location.href"), `${origin}/hostile.html`);

  const todo = await open("webmcp.html");
  const w = await command("run", { id: `ff${++runs}`, prompt: "#browser-webmcp", tabId: todo.tabId, policy: "allow" });
  assert.equal(w.status, "done", JSON.stringify(w));
  assert.equal(w.asked.length, 1);
  assert.match(w.text, /Buy milk/);
});
