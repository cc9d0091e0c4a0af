// examples/extension end to end in Chromium (Playwright): a prompt in the side panel becomes
// relay calls that type and click in a real page after the person allows them; the service worker
// is stopped while a relay call waits for approval, and the run completes after it restarts.
// Screenshots go to test-output/.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchExample } from "./launch.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const shots = path.join(repo, "test-output");

let server, pageUrl, context, root;
before(async () => {
  server = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(fs.readFileSync(path.join(here, "page/form.html")));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  pageUrl = `http://127.0.0.1:${server.address().port}/form.html`;
  ({ context, root } = await launchExample("tnx-ext-example-"));
});
after(async () => { await context?.close(); server?.close(); fs.rmSync(root, { recursive: true, force: true }); });

/** The extension's id (from its service worker) and a tab on the test page. */
async function openPage() {
  const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker"));
  const page = await context.newPage();
  await page.goto(pageUrl);
  return { extId: new URL(sw.url()).host, page };
}

test("relay calls act in a real page with approval, across a service worker restart", async () => {
  const { extId, page } = await openPage();
  const panel = await context.newPage();
  await panel.goto(`chrome-extension://${extId}/panel.html`);
  const tabId = await panel.evaluate(async (url) => (await chrome.tabs.query({ url }))[0].id, pageUrl);
  await panel.goto(`chrome-extension://${extId}/panel.html?tab=${tabId}`);
  const cdp = await context.newCDPSession(panel);
  const versions = new Map();
  cdp.on("ServiceWorker.workerVersionUpdated", (e) => { for (const v of e.versions) versions.set(v.versionId, v); });
  await cdp.send("ServiceWorker.enable");

  await panel.fill("#prompt", "#form");
  await panel.click("form button");
  await panel.waitForSelector(".card .allow", { timeout: 10_000 }).catch(async (e) => {
    throw new Error(`no approval card; the panel shows: ${await panel.textContent("body")}`);
  });
  await panel.click(".card .allow"); // type + click
  await panel.waitForSelector(".card .allow"); // the second relay request (read) waits for approval
  assert.equal(await page.textContent("#thanks"), "Thanks, Ada!", "the page really changed");
  assert.equal(await page.inputValue("#name"), "Ada");
  await panel.screenshot({ path: path.join(shots, "extension-panel-approval.png") });

  // Chrome stops idle workers; do it now, while the relay call waits for the person.
  const running = [...versions.values()].filter((v) => v.runningStatus === "running" && v.scriptURL.endsWith("/sw.js"));
  await cdp.send("ServiceWorker.stopWorker", { versionId: running[0].versionId });
  for (let i = 0; i < 50 && [...versions.values()].some((v) => v.runningStatus === "running"); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(![...versions.values()].some((v) => v.runningStatus === "running"), "the worker stopped");

  // The panel reconnects, a new worker finds the halted run in chrome.storage.local and asks again.
  await panel.waitForSelector("text=Resuming the run", { timeout: 10_000 });
  await panel.click(".card .allow");
  await panel.waitForFunction(() => document.body.dataset.status === "done", null, { timeout: 10_000 });
  const answer = await panel.evaluate(() => document.body.dataset.answer);
  assert.match(answer, /^I filled in the form\. The page says: <<untrusted-page-content [0-9a-f]{8} origin=[^\n]+>>\n[\s\S]*Thanks, Ada!/);
  await panel.screenshot({ path: path.join(shots, "extension-panel-done.png") });
  await page.screenshot({ path: path.join(shots, "extension-page-after.png") });

  // A declined call is an error result the model sees; nothing happens in the page.
  await panel.click("#reset");
  await page.reload();
  await panel.fill("#prompt", "#form");
  await panel.click("form button");
  // decline every relay call the model asks for, until it gives up and answers
  for (let i = 0; i < 5; i++) {
    await panel.waitForFunction(() => document.body.dataset.status === "done" || document.querySelector(".card .decline"), null, { timeout: 10_000 });
    if (await panel.evaluate(() => document.body.dataset.status === "done")) break;
    await panel.click(".card .decline");
  }
  assert.equal(await panel.evaluate(() => document.body.dataset.status), "done");
  assert.equal(await page.textContent("#thanks"), "Not sent yet.", "nothing happened in the page");
  assert.match(await panel.textContent("body"), /declined: the person did not allow browser_type/);
});

/** Stops the extension's service worker through `cdp` (a CDP session with ServiceWorker enabled). */
async function stopWorker(cdp, versions) {
  const live = () => [...versions.values()].some((v) => v.runningStatus === "running");
  for (let i = 0; i < 50 && !live(); i++) await new Promise((r) => setTimeout(r, 100)); // the first reports
  const running = [...versions.values()].filter((v) => v.runningStatus === "running" && v.scriptURL.endsWith("/sw.js"));
  assert.equal(running.length, 1, "one worker runs");
  await cdp.send("ServiceWorker.stopWorker", { versionId: running[0].versionId });
  for (let i = 0; i < 50 && [...versions.values()].some((v) => v.runningStatus === "running"); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(![...versions.values()].some((v) => v.runningStatus === "running"), "the worker stopped");
}

const status = (panel, s) => panel.waitForFunction((want) => document.body.dataset.status === want, s, { timeout: 10_000 });
const texts = (panel, cls) => panel.locator(`#chat .${cls}`).allTextContents();

test("the panel: busy and Stop, a conversation that outlives the panel and the worker, checked settings, a refused key", async () => {
  const { extId, page } = await openPage();
  let panel = await context.newPage();
  await panel.goto(`chrome-extension://${extId}/panel.html`);
  const tabId = await panel.evaluate(async (url) => (await chrome.tabs.query({ url }))[0].id, pageUrl);
  const panelUrl = `chrome-extension://${extId}/panel.html?tab=${tabId}`;
  await panel.goto(panelUrl);
  await panel.click("#reset");
  await panel.waitForFunction(() => !document.querySelector("#chat .msg"));
  const send = async (prompt) => { await panel.fill("#prompt", prompt); await panel.click("#send"); };

  // Busy, then Stop mid-stream: no more text arrives, the input comes back.
  await send("Tell me a long story");
  await panel.waitForFunction(() => (document.querySelector(".assistant")?.textContent.length ?? 0) > 40, null, { timeout: 10_000 });
  assert.ok(await panel.isVisible("#busy"), "the busy indicator shows");
  assert.equal(await panel.textContent("#busy-label"), "Thinking");
  assert.ok(await panel.isDisabled("#prompt"));
  await panel.screenshot({ path: path.join(shots, "extension-panel-busy.png") });
  await panel.click("#stop");
  await status(panel, "stopped");
  const partial = await panel.textContent(".assistant");
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(await panel.textContent(".assistant"), partial, "nothing streams after Stop");
  assert.ok(!partial.endsWith("The end."));
  assert.ok(!(await panel.isVisible("#busy")) && !(await panel.isDisabled("#prompt")));
  await panel.screenshot({ path: path.join(shots, "extension-panel-stopped.png") });

  // Stop while a relay call waits for approval: the card goes, the page is untouched, and the
  // stored conversation is not left halted.
  await send("#form");
  await panel.waitForSelector(".card .allow", { timeout: 10_000 });
  assert.equal(await panel.textContent("#busy-label"), "Waiting for you");
  await panel.click("#stop");
  await status(panel, "stopped");
  assert.equal(await panel.locator(".card").count(), 0);
  assert.equal(await page.textContent("#thanks"), "Not sent yet.");
  const stored = () => panel.evaluate(async () => (await chrome.storage.local.get("toolnexus:panel"))["toolnexus:panel"]);
  assert.equal((await stored()).pending, undefined, "the halted turn was closed as declined");

  await send("My name is Ada");
  await status(panel, "done");
  assert.match(await panel.evaluate(() => document.body.dataset.answer), /^Nice to meet you, Ada!/);
  assert.match((await texts(panel, "usage")).at(-1), /^1 model call · \d+ tokens/);

  // Close the panel and stop the worker: a new panel shows the conversation, and the model,
  // in a new worker, still knows it.
  await panel.close();
  const cdp = await context.newCDPSession(page);
  const versions = new Map();
  cdp.on("ServiceWorker.workerVersionUpdated", (e) => { for (const v of e.versions) versions.set(v.versionId, v); });
  await cdp.send("ServiceWorker.enable");
  await stopWorker(cdp, versions);
  panel = await context.newPage();
  await panel.goto(panelUrl);
  await panel.waitForSelector("#chat .notice");
  const shown = await texts(panel, "msg");
  assert.equal(shown[0], "Earlier in this conversation");
  assert.ok(shown.includes("My name is Ada") && shown.some((t) => t.startsWith("Nice to meet you, Ada!")), shown.join(" | "));
  assert.ok(shown.some((t) => /^1 model call · /.test(t)), "the usage of a turn is shown again");
  await send("What is my name?");
  await status(panel, "done");
  assert.match(await panel.evaluate(() => document.body.dataset.answer), /^Your name is Ada: you told me earlier/);
  await panel.screenshot({ path: path.join(shots, "extension-panel-history.png") });

  // The options page refuses settings that cannot work, and saves ones that can.
  const options = await context.newPage();
  await options.setViewportSize({ width: 640, height: 720 });
  await options.goto(`chrome-extension://${extId}/options.html`);
  await options.fill("#baseUrl", "ftp://example.org/v1");
  await options.fill("#apiKey", "sk wrong");
  await options.click("#save");
  assert.match(await options.textContent("#saved"), /^Not saved/);
  assert.match(await options.textContent("#baseUrl-err"), /https/);
  assert.match(await options.textContent("#apiKey-err"), /spaces/);
  assert.equal(await options.getAttribute("#baseUrl", "aria-invalid"), "true");
  assert.deepEqual(await options.evaluate(() => chrome.storage.local.get("provider")), {}, "nothing was saved");
  await options.screenshot({ path: path.join(shots, "extension-options-invalid.png") });

  // A provider that refuses the key: the panel shows it as an error.
  const seen = [];
  const refuser = http.createServer((req, res) => {
    seen.push({ url: req.url, auth: req.headers.authorization });
    res.writeHead(401, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } }));
  });
  await new Promise((r) => refuser.listen(0, "127.0.0.1", r));
  try {
    await options.fill("#baseUrl", `http://127.0.0.1:${refuser.address().port}/v1`);
    await options.fill("#apiKey", "sk-wrong");
    await options.click("#save");
    assert.match(await options.textContent("#saved"), /^Saved: openai · gpt-4o-mini/);
    assert.equal(await options.textContent("#baseUrl-err"), "");
    await panel.waitForFunction(() => document.querySelector("#provider").textContent === "openai · gpt-4o-mini");
    await send("hello");
    await status(panel, "error");
    assert.match((await texts(panel, "error")).at(-1), /^provider_http: LLM 401: check apiKey: the provider did not accept it \(the provider.s reply is withheld: it can echo a key\) · The provider refused the API key/);
    assert.deepEqual(seen, [{ url: "/v1/chat/completions", auth: "Bearer sk-wrong" }]);
    assert.ok(!(await panel.isVisible("#busy")), "not busy after the error");
    await panel.screenshot({ path: path.join(shots, "extension-panel-refused-key.png") });
  } finally {
    refuser.close();
  }
  // Back to the offline model.
  await options.fill("#baseUrl", "");
  await options.fill("#apiKey", "");
  await options.click("#save");
  assert.equal(await options.textContent("#saved"), "Saved: the offline scripted model.");
  await send("hello");
  await status(panel, "done");
  assert.equal(await panel.evaluate(() => document.body.dataset.answer), "Hello again! What would you like to do next?");
});

test("the screenshot relay tool sends the tab's pixels to the model", async () => {
  const { extId, page } = await openPage();
  const panel = await context.newPage();
  await panel.goto(`chrome-extension://${extId}/panel.html`);
  const tabId = await panel.evaluate(async (url) => (await chrome.tabs.query({ url }))[0].id, pageUrl);
  await panel.goto(`chrome-extension://${extId}/panel.html?tab=${tabId}`);
  await panel.click("#reset");
  await panel.fill("#prompt", "#screenshot what do you see?");
  await panel.click("#send");
  // A screenshot only looks: it asks nothing (the kit brings the agent's tab to the front to take it).
  await panel.waitForFunction(() => document.body.dataset.status === "done", null, { timeout: 10_000 });
  const answer = await panel.evaluate(() => document.body.dataset.answer);
  const m = /^I received image\/png of (\d+) bytes\.$/.exec(answer);
  assert.ok(m, `the scripted model describes the image it received: ${answer}`);
  assert.equal(await panel.locator("#chat img.shot").count(), 1, "the panel shows the screenshot");

  // The image is kept as a blob beside the stored conversation (chrome.storage.local), as the
  // model got it; the conversation holds only its key.
  const all = await panel.evaluate(() => chrome.storage.local.get(null));
  const conversation = JSON.stringify(all["toolnexus:panel"]);
  assert.ok(conversation.length < 20_000 && !/[A-Za-z0-9+/]{2000}/.test(conversation), "the conversation holds no image bytes");
  assert.match(conversation, /sha256:/, "the conversation names its blob");
  const blobs = Object.keys(all).filter((k) => k.startsWith("toolnexus-blob:")).map((k) => String(all[k]));
  const b64 = blobs.map((t) => /iVBORw0KGgo[A-Za-z0-9+/=]+/.exec(t)?.[0]).find(Boolean);
  assert.ok(b64, "the screenshot is in a blob");
  const png = Buffer.from(b64, "base64");
  assert.equal(png.length, Number(m[1]), "the byte count the model reported");
  assert.equal(png.subarray(1, 4).toString(), "PNG");
  fs.writeFileSync(path.join(shots, "extension-screenshot-tool.png"), png);
  await panel.screenshot({ path: path.join(shots, "extension-screenshot-answer.png") });
});

test("a delegating agent: the browsing child's relay calls act in the tab, across a service worker restart", async () => {
  // Earlier tests' panels would say hello to the new worker too, each for its own tab.
  for (const p of context.pages()) await p.close();
  const { extId, page } = await openPage();
  const panel = await context.newPage();
  await panel.goto(`chrome-extension://${extId}/panel.html`);
  // The newest tab on the page is this test's (earlier tests left theirs open).
  const tabId = await panel.evaluate(async (url) => (await chrome.tabs.query({ url })).at(-1).id, pageUrl);
  await panel.goto(`chrome-extension://${extId}/panel.html?tab=${tabId}`);
  await panel.click("#reset");
  await panel.waitForFunction(() => !document.querySelector("#chat .msg"));
  const cdp = await context.newCDPSession(panel);
  const versions = new Map();
  cdp.on("ServiceWorker.workerVersionUpdated", (e) => { for (const v of e.versions) versions.set(v.versionId, v); });
  await cdp.send("ServiceWorker.enable");

  await panel.fill("#prompt", "#delegate");
  await panel.click("form button");
  // The child's own calls (type + click), named with the agent that asks; never the delegate call.
  const first = await panel.waitForSelector(".card .allow", { timeout: 10_000 });
  assert.match(await panel.textContent(".card"), /\(the browser agent\) Allow the agent to browser_type .*"Ada".*browser_click/s);
  await first.click();
  await panel.waitForFunction(() => /read_text/.test(document.querySelector(".card")?.textContent ?? ""), null, { timeout: 10_000 });
  assert.equal(await page.textContent("#thanks"), "Thanks, Ada!", "the child acted in the page");

  // The worker stops while the child's read waits; the next one resumes the child, not the root.
  await stopWorker(cdp, versions);
  await panel.waitForSelector("text=Resuming the run", { timeout: 10_000 });
  assert.match(await panel.textContent(".card"), /\(the browser agent\).*read_text/s);
  await panel.click(".card .allow");
  await status(panel, "done");
  assert.match(await panel.evaluate(() => document.body.dataset.answer), /^The browser agent reports: I filled in the form\. The page says: <<untrusted-page-content[\s\S]*Thanks, Ada!/);
  await panel.screenshot({ path: path.join(shots, "extension-panel-delegate.png") });
});
