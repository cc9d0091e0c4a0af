// examples/extension end to end in headless Firefox ESR, driven through geckodriver: the example
// with its Firefox manifest (examples/extension/manifest.mjs) is installed as a temporary add-on;
// a prompt in the panel becomes relay calls that type and click in a real page after the person
// allows them; the event page is suspended (as Firefox does when it is idle) while a relay call
// waits, and a new background page resumes the run from browser.storage.local, once even when
// panels in two windows reconnect to it; the toolbar button opens the sidebar. Screenshots go to
// test-output/.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startFirefox, firefoxVersion, tempDir } from "./webdriver.mjs";
import { firefoxManifest, GECKO_ID } from "../../examples/extension/manifest.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const shots = path.join(repo, "test-output");
const UUID = crypto.randomUUID(); // fixes the add-on's moz-extension:// origin for this profile

let server, pageUrl, ff, root;
before(async () => {
  console.log(`# ${firefoxVersion()}`);
  server = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(fs.readFileSync(path.join(repo, "tests/extension/page/form.html")));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  pageUrl = `http://127.0.0.1:${server.address().port}/form.html`;
  root = tempDir("tnx-ff-ext-");
  const extDir = path.join(root, "ext");
  fs.cpSync(path.join(repo, "examples/extension"), extDir, { recursive: true });
  fs.cpSync(path.join(repo, "pkg"), path.join(extDir, "pkg"), { recursive: true });
  fs.copyFileSync(path.join(repo, "demo/scripted-logic.mjs"), path.join(extDir, "scripted-logic.mjs"));
  fs.copyFileSync(path.join(repo, "demo/transcript.mjs"), path.join(extDir, "transcript.mjs")); // the side panel's (scripts/copy-pkg.sh)
  // The panel runs in a tab here, so the sidebar (a second panel, acting in whichever tab is
  // active) is not opened at install as Firefox would.
  const manifest = firefoxManifest();
  manifest.sidebar_action.open_at_install = false;
  fs.writeFileSync(path.join(extDir, "manifest.json"), JSON.stringify(manifest, null, 2));
  ff = await startFirefox({
    systemAccess: true,
    prefs: {
      "extensions.webextensions.uuids": JSON.stringify({ [GECKO_ID]: UUID }),
    },
  });
  await ff.installTemporaryAddon(extDir);
});
after(async () => { await ff?.quit(); server?.close(); if (root) fs.rmSync(root, { recursive: true, force: true }); });

const panelStatus = () => ff.execute("return document.body.dataset.status ?? null");
const panelText = async () => `the panel shows: ${await ff.text("body")}`;
const hasCard = "return !!document.querySelector('.card .allow')";
const resumes = () => ff.execute("return document.body.textContent.split('Resuming the run').length - 1");
// Cards shown before a suspension are marked, so a test clicks the one the new background page sent.
const markOld = "document.querySelectorAll('.card').forEach((c) => { c.dataset.old = '1'; })";
const hasFreshCard = "return !!document.querySelector('.card:not([data-old]) .allow')";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let pageTab, panelTab, panelUrl, tabId;

/** Suspends the event page the way Firefox does when it is idle (and about:debugging's "Terminate
 * background script" does); resolves to the background state afterwards. */
const suspendBackground = () => ff.chrome(`
  const { ExtensionParent } = ChromeUtils.importESModule("resource://gre/modules/ExtensionParent.sys.mjs");
  await ExtensionParent.DebugUtils.terminateBackgroundScript(args[0]);
  return WebExtensionPolicy.getByID(args[0]).extension.backgroundState;`, GECKO_ID);

/** A new run in the panel tab against a fresh page, approved up to its second relay request. */
async function runUntilSecondApproval() {
  await ff.type("#prompt", "#form");
  await ff.click("form button");
  await ff.waitFor(hasCard, { describe: panelText });
  await ff.click(".card .allow"); // type + click
  await ff.waitFor(hasCard, { describe: panelText }); // read_text waits
}

test("Firefox: relay calls act in a real page with approval, across a background page suspension", async () => {
  await ff.goto(pageUrl);
  pageTab = await ff.handle();
  panelTab = await ff.newTab();
  await ff.switchTo(panelTab);
  panelUrl = `moz-extension://${UUID}/panel.html`;
  await ff.goto(panelUrl);
  // The extension's own id for the page's tab, asked through the panel's `chrome.tabs` (by exact
  // URL: in Firefox a match pattern with a port matches nothing).
  tabId = await ff.run("return (await chrome.tabs.query({})).find((t) => t.url === args[0])?.id;", pageUrl);
  assert.equal(typeof tabId, "number", "the panel sees the page's tab");
  await ff.goto(`${panelUrl}?tab=${tabId}`);

  await runUntilSecondApproval();
  await ff.screenshot(path.join(shots, "firefox-extension-panel-approval.png"));
  await ff.switchTo(pageTab);
  assert.equal(await ff.text("#thanks"), "Thanks, Ada!", "the page really changed");
  assert.equal(await ff.execute("return document.querySelector('#name').value"), "Ada");
  await ff.switchTo(panelTab);

  // Suspend the event page now, while the relay call waits for the person.
  await ff.execute(markOld);
  const state = await suspendBackground();
  assert.equal(state, "stopped", "the background page was suspended");
  // chromeStorageStore wrote the halted run to storage.local (Firefox's `chrome.*` is `browser.*`).
  const stored = await ff.run("return (await chrome.storage.local.get('toolnexus:panel'))['toolnexus:panel'];");
  assert.equal(stored?.pending?.data?.calls?.[0]?.name, "browser_read_text", "the halted run is in storage.local");

  // The panel's port closed; it reconnects, which wakes a new background page that finds the
  // halted run in storage.local and asks again (a page that still had it parked would not say this).
  await ff.waitFor("return document.body.textContent.includes('Resuming the run')", { describe: panelText });
  await ff.waitFor(hasFreshCard, { describe: panelText });
  await ff.click(".card:not([data-old]) .allow");
  await ff.waitFor("return document.body.dataset.status === 'done'", { describe: panelText });
  assert.match(await ff.execute("return document.body.dataset.answer"), /^I filled in the form\. The page says: <<untrusted-page-content [0-9a-f]{8} origin=[^\n]+>>\n[\s\S]*Thanks, Ada!/);
  assert.equal(await resumes(), 1, "the halted run was resumed once");
  const running = await ff.chrome("return WebExtensionPolicy.getByID(args[0]).extension.backgroundState;", GECKO_ID);
  assert.equal(running, "running", "a new background page ran the rest");
  await ff.screenshot(path.join(shots, "firefox-extension-panel-done.png"));
  await ff.switchTo(pageTab);
  await ff.screenshot(path.join(shots, "firefox-extension-page-after.png"));

  // A declined call is an error result the model sees; nothing happens in the page.
  await ff.goto(pageUrl);
  await ff.switchTo(panelTab);
  await ff.click("#reset");
  await ff.waitFor("return !document.body.dataset.status");
  await ff.type("#prompt", "#form");
  await ff.click("form button");
  for (let i = 0; i < 5; i++) {
    await ff.waitFor("return document.body.dataset.status === 'done' || !!document.querySelector('.card .decline')", { describe: panelText });
    if ((await panelStatus()) === "done") break;
    await ff.click(".card .decline");
  }
  assert.equal(await panelStatus(), "done");
  assert.match(await ff.text("body"), /declined: the person did not allow browser_type/);
  await ff.switchTo(pageTab);
  assert.equal(await ff.text("#thanks"), "Not sent yet.", "nothing happened in the page");
});

test("Firefox: with panels in two windows, a suspended run is resumed once", async () => {
  await ff.switchTo(pageTab);
  await ff.goto(pageUrl);
  await ff.switchTo(panelTab);
  await ff.click("#reset");
  await ff.waitFor("return !document.body.dataset.status");
  await runUntilSecondApproval();
  // A second panel in its own window, as a sidebar in a second window would be: both are
  // foreground, so both reconnect at once when the background page goes.
  const second = await ff.newWindow();
  await ff.switchTo(second);
  await ff.goto(`${panelUrl}?tab=${tabId}`);
  await ff.waitFor(hasCard, { describe: panelText }); // the parked call, shown to the new panel too
  for (const tab of [panelTab, second]) { await ff.switchTo(tab); await ff.execute(markOld); }
  assert.equal(await suspendBackground(), "stopped");

  // Both panels say hello to the new background page, which resumes the run once and shows it
  // to both (a second resume would show "Resuming" twice).
  for (const tab of [panelTab, second]) {
    await ff.switchTo(tab);
    await ff.waitFor(hasFreshCard, { describe: panelText });
  }
  await sleep(300);
  await ff.click(".card:not([data-old]) .allow");
  for (const tab of [second, panelTab]) {
    await ff.switchTo(tab);
    await ff.waitFor("return document.body.dataset.status === 'done'", { describe: panelText });
    assert.match(await ff.execute("return document.body.dataset.answer"), /^I filled in the form\. The page says: <<untrusted-page-content [0-9a-f]{8} origin=[^\n]+>>\n[\s\S]*Thanks, Ada!/);
    assert.equal(await resumes(), 1, "the run was resumed once, and both panels saw it");
  }
  await ff.switchTo(second);
  await ff.cmd("DELETE", "/window");
  await ff.switchTo(panelTab);
});

test("Firefox: the toolbar button opens the agent in the sidebar", async () => {
  const sidebar = `const sc = Services.wm.getMostRecentWindow("navigator:browser").SidebarController;
    return { open: sc.isOpen, url: sc.browser?.contentDocument?.querySelector("browser")?.currentURI?.spec ?? null };`;
  assert.equal((await ff.chrome(sidebar)).open, false);
  // What a click on the add-on's toolbar button does (action.onClicked → sidebarAction.toggle).
  await ff.chrome(`const { ExtensionParent } = ChromeUtils.importESModule("resource://gre/modules/ExtensionParent.sys.mjs");
    const win = Services.wm.getMostRecentWindow("navigator:browser");
    ExtensionParent.apiManager.global.browserActionFor(WebExtensionPolicy.getByID(args[0]).extension).triggerAction(win);`, GECKO_ID);
  let state;
  for (let i = 0; i < 50 && !(state = await ff.chrome(sidebar)).url?.endsWith("/panel.html"); i++) await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(state, { open: true, url: `moz-extension://${UUID}/panel.html` });
});
