// useChat in a real MV3 extension: @ai-sdk/react's useChat (and the AI SDK's AbstractChat) in an extension page, with
// portChatTransport, drives the loop in the service worker (serveChatPort) over a
// chrome.runtime port, in headless Chromium (Playwright). Relay calls of one turn (two, three)
// are the page's client tools, answered out of order; an approval is clicked in the page; a
// halted run and a resumable answer that ended unwatched outlive a worker stopped over CDP;
// closing the page while the answer streams disconnects the port, and the worker's run is aborted.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const requireTools = createRequire(path.join(repo, "tools/js/package.json"));
const { chromium } = requireTools("playwright-core");
const esbuild = requireTools("esbuild");

let context, root, extId;
before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "tnx-ui-ext-"));
  const ext = path.join(root, "ext");
  fs.mkdirSync(ext);
  for (const f of ["manifest.json", "sw.js", "panel.html", "react-panel.html"]) fs.copyFileSync(path.join(here, "ext", f), path.join(ext, f));
  fs.cpSync(path.join(repo, "pkg"), path.join(ext, "pkg"), { recursive: true });
  fs.copyFileSync(path.join(repo, "tests/js/scripted-fetch.mjs"), path.join(ext, "scripted-fetch.mjs"));
  // The page's script: `ai` and toolnexus-wasm/ui from tests/ui/node_modules, bundled as an app would be.
  await esbuild.build({ entryPoints: [path.join(here, "ext/panel.src.js")], bundle: true, format: "esm", outfile: path.join(ext, "panel.js"), logLevel: "warning", nodePaths: [path.join(here, "node_modules")] });
  await esbuild.build({ entryPoints: [path.join(here, "ext/react-panel.src.jsx")], bundle: true, format: "esm", outfile: path.join(ext, "react-panel.js"), logLevel: "warning",
    jsx: "automatic", define: { "process.env.NODE_ENV": '"production"' }, nodePaths: [path.join(here, "node_modules")] });
  context = await chromium.launchPersistentContext(path.join(root, "profile"), {
    executablePath: "/usr/bin/chromium", headless: true, ignoreDefaultArgs: ["--disable-extensions"],
    args: [`--disable-extensions-except=${ext}`, `--load-extension=${ext}`, "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"],
  });
  const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker"));
  extId = new URL(sw.url()).host;
});
after(async () => { await context?.close(); fs.rmSync(root, { recursive: true, force: true }); });

async function panel() {
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`chrome-extension://${extId}/panel.html`);
  await page.waitForFunction(() => typeof globalThis.ask == "function");
  return { page, errors };
}

test("the page's useChat answers two relay calls of one turn, out of order, and the worker's run resumes once", async () => {
  const { page, errors } = await panel();
  const r = await page.evaluate(() => globalThis.ask("click #a and #b"));
  assert.equal(r.text, "click: clicked #a\nclick: clicked #b");
  assert.deepEqual(r.clicked, ["#b", "#a"]);
  assert.deepEqual(errors, []);
  await page.close();
});

test("closing the page while the answer streams aborts the worker's run", async () => {
  const { page } = await panel();
  const probe = await panel();
  const aborted = () => probe.page.evaluate(() => chrome.runtime.sendMessage("aborted?"));
  assert.equal(await aborted(), 0);
  await page.evaluate(() => globalThis.send("hang on"));
  await page.waitForFunction(() => globalThis.chatStatus() == "submitted" || globalThis.chatStatus() == "streaming");
  await new Promise((ok) => setTimeout(ok, 200)); // the worker's model call is under way
  await page.close();
  const t0 = Date.now();
  while ((await aborted()) == 0 && Date.now() - t0 < 10_000) await new Promise((ok) => setTimeout(ok, 50));
  assert.equal(await aborted(), 1);
  await probe.page.close();
});

test("resumable: a page closed mid-answer and opened again shows the whole answer, replayed and followed live", async () => {
  const expected = Array.from({ length: 40 }, (_, i) => `w${i} `).join("");
  const open = async () => {
    const page = await context.newPage();
    await page.goto(`chrome-extension://${extId}/panel.html?resume`);
    await page.waitForFunction(() => typeof globalThis.resume == "function");
    return page;
  };
  const first = await open();
  await first.evaluate(() => globalThis.send("tell me"));
  await first.waitForFunction(() => globalThis.shown().length > 20);
  const seen = await first.evaluate(() => globalThis.shown());
  await first.close(); // mid-answer: the worker's run goes on
  assert.ok(seen.length < expected.length, "the first page saw part of the answer");
  const second = await open();
  const r = await second.evaluate(() => globalThis.resume());
  assert.deepEqual(r, { text: expected, assistants: 1, status: "ready" });
  // Delivered whole: a third page has nothing to replay.
  const third = await open();
  assert.deepEqual(await third.evaluate(() => globalThis.resume()), { text: "", assistants: 0, status: "ready" });
  await second.close();
  await third.close();
});

test("@ai-sdk/react's useChat, typed into and clicked as a person does, drives the worker's loop", async () => {
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`chrome-extension://${extId}/react-panel.html`);
  await page.fill("#prompt", "click #a and #b");
  await page.click("#send");
  const answer = page.locator('.message[data-role="assistant"] .text');
  await answer.filter({ hasText: "click: clicked #b" }).waitFor({ timeout: 15_000 });
  await page.waitForFunction(() => document.body.dataset.status == "ready");
  assert.equal(await answer.last().textContent(), "click: clicked #a\nclick: clicked #b");
  assert.deepEqual(await page.locator(".tool").evaluateAll((ps) => ps.map((p) => p.dataset.state)), ["output-available", "output-available"]);
  fs.mkdirSync(path.join(repo, "test-output"), { recursive: true });
  await page.screenshot({ path: path.join(repo, "test-output/ui-react-panel.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

/** The React page (`query`: `?manual` to answer relay calls by a click), once it has rendered. */
async function reactPage(query = "") {
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`chrome-extension://${extId}/react-panel.html${query}`);
  await page.waitForSelector("#send");
  return { page, errors };
}
/** Types `text` and clicks Send, as a person does. */
async function say(page, text) {
  await page.fill("#prompt", text);
  await page.click("#send");
}
const settled = (page) => page.waitForFunction(() => document.body.dataset.status == "ready", null, { timeout: 15_000 });
const shownText = (page) => page.locator('.message[data-role="assistant"] .text').allTextContents().then((t) => t.join(""));
const toolStates = (page) => page.locator(".tool").evaluateAll((ps) => ps.map((p) => p.dataset.state));
/** What the (running, or a newly started) worker did for `chatId`: its requests, and the tool results each model call saw. */
const seenBy = (page, chatId) => page.evaluate((id) => chrome.runtime.sendMessage({ seen: id }), chatId);

/** A CDP session that sees the extension's service worker, and `stop()`, which stops it as Chrome does an idle one. */
async function workerControl(page) {
  const cdp = await context.newCDPSession(page);
  const versions = new Map();
  cdp.on("ServiceWorker.workerVersionUpdated", (e) => { for (const v of e.versions) versions.set(v.versionId, v); });
  await cdp.send("ServiceWorker.enable");
  const running = () => [...versions.values()].filter((v) => v.runningStatus === "running" && v.scriptURL.endsWith("/sw.js"));
  const wait = async (ok) => { for (let i = 0; i < 100 && !ok(); i++) await new Promise((r) => setTimeout(r, 50)); };
  return {
    async stop() {
      await wait(() => running().length > 0); // the first reports
      assert.equal(running().length, 1, "one worker runs");
      await cdp.send("ServiceWorker.stopWorker", { versionId: running()[0].versionId });
      await wait(() => running().length == 0);
      assert.equal(running().length, 0, "the worker stopped");
    },
  };
}

test("@ai-sdk/react's useChat answers three relay calls of one turn out of order with addToolOutput; the worker's run resumes once", async () => {
  const { page, errors } = await reactPage();
  await say(page, "click #a, #b and #c");
  await page.locator('.message[data-role="assistant"] .text').filter({ hasText: "click: clicked #c" }).waitFor({ timeout: 15_000 });
  await settled(page);
  assert.equal(await shownText(page), "click: clicked #a\nclick: clicked #b\nclick: clicked #c");
  assert.deepEqual(await page.evaluate(() => globalThis.clicked), ["#b", "#c", "#a"], "answered out of order");
  assert.deepEqual(await page.evaluate(() => globalThis.toolCalls), ["click", "click", "click"], "each call run once in the page");
  assert.deepEqual(await toolStates(page), ["output-available", "output-available", "output-available"]);
  const seen = await seenBy(page, await page.evaluate(() => document.body.dataset.chatId));
  // The prompt, then one resume with all three outputs (a request sent before all three had one would be "waiting").
  assert.deepEqual(seen.requests.filter((k) => k != "waiting"), ["prompt", "resume"]);
  assert.deepEqual(seen.results, [[], ["clicked #a", "clicked #b", "clicked #c"]], "the model saw each output once");
  assert.deepEqual(errors, []);
  await page.close();
});

test("@ai-sdk/react's useChat: an approval clicked in the page; the worker's tool runs once", async () => {
  const { page, errors } = await reactPage();
  await say(page, "delete /tmp/a");
  const allow = page.locator(".tool .allow");
  await allow.waitFor({ timeout: 15_000 });
  await settled(page);
  const chatId = await page.evaluate(() => document.body.dataset.chatId);
  const before = await seenBy(page, chatId);
  assert.deepEqual(await toolStates(page), ["approval-requested"]);
  await allow.click();
  await page.locator('.message[data-role="assistant"] .text').filter({ hasText: "delete_file: deleted /tmp/a" }).waitFor({ timeout: 15_000 });
  await settled(page);
  assert.equal(await shownText(page), "delete_file: deleted /tmp/a");
  assert.deepEqual(await toolStates(page), ["output-available"]);
  const seen = await seenBy(page, chatId);
  assert.equal(seen.deleted - before.deleted, 1, "the tool ran once");
  assert.deepEqual(seen.requests, ["prompt", "resume"]);
  assert.deepEqual(seen.results, [[], ["deleted /tmp/a"]]);
  assert.deepEqual(errors, []);
  await page.close();
});

test("@ai-sdk/react's useChat: a halted run outlives the worker; the page answers, a new worker resumes it, the call runs once", async () => {
  const { page, errors } = await reactPage("?manual");
  const worker = await workerControl(page);
  await say(page, "click #a");
  const answerButton = page.locator(".tool .answer");
  await answerButton.waitFor({ timeout: 15_000 });
  await settled(page); // the run halted: its answer ended, nothing waits in the worker
  const chatId = await page.evaluate(() => document.body.dataset.chatId);
  assert.deepEqual((await seenBy(page, chatId)).requests, ["prompt"]);
  await worker.stop();
  await answerButton.click(); // addToolOutput; useChat sends, which starts a new worker
  await page.locator('.message[data-role="assistant"] .text').filter({ hasText: "click: clicked #a" }).waitFor({ timeout: 15_000 });
  await settled(page);
  assert.equal(await shownText(page), "click: clicked #a");
  assert.deepEqual(await toolStates(page), ["output-available"]);
  assert.deepEqual(await page.evaluate(() => [globalThis.clicked, globalThis.toolCalls]), [["#a"], ["click"]], "the call ran once");
  const seen = await seenBy(page, chatId);
  // A new worker: it has no record of the prompt; it resumed the halted run from the message's state.
  assert.deepEqual(seen.requests, ["resume"]);
  assert.deepEqual(seen.results, [["clicked #a"]], "the model saw the output once");
  assert.deepEqual(errors, []);
  await page.close();
});

// A worker stopped while it streams loses the answer's rest (its model call dies with it, and no
// provider resumes one: docs/decisions/ui.md); what survives a stop is an answer that ended while
// no page watched, kept in chrome.storage.session.
test("resumable: an answer that ended while no page watched, the worker stopped, is replayed whole and byte-equal by a new worker", async () => {
  const expected = Array.from({ length: 40 }, (_, i) => `w${i} `).join("");
  const chatId = "chat-unwatched";
  const open = async () => {
    const page = await context.newPage();
    await page.goto(`chrome-extension://${extId}/panel.html?resume=${chatId}`);
    await page.waitForFunction(() => typeof globalThis.resume == "function");
    return page;
  };
  const first = await open();
  await first.evaluate(() => globalThis.send("tell me"));
  await first.waitForFunction(() => globalThis.shown().length > 20);
  const seen = await first.evaluate(() => globalThis.shown());
  await first.close(); // mid-answer: the worker's run goes on
  assert.ok(seen.length < expected.length, "the first page saw part of the answer");
  const probe = await context.newPage();
  await probe.goto(`chrome-extension://${extId}/panel.html`);
  const worker = await workerControl(probe);
  const kept = () => probe.evaluate((k) => chrome.storage.session.get(k).then((r) => r[k]?.chunks?.length ?? 0), `toolnexus:chat:${chatId}`);
  for (let t0 = Date.now(); (await kept()) == 0 && Date.now() - t0 < 15_000;) await new Promise((ok) => setTimeout(ok, 50));
  assert.ok((await kept()) > 0, "the ended answer is kept");
  await worker.stop();
  const second = await open();
  assert.deepEqual(await second.evaluate(() => globalThis.resume()), { text: expected, assistants: 1, status: "ready" });
  const third = await open();
  assert.deepEqual(await third.evaluate(() => globalThis.resume()), { text: "", assistants: 0, status: "ready" });
  await Promise.all([probe.close(), second.close(), third.close()]);
});
