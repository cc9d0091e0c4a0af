// The www demo page in headless Chromium (Playwright): the browser entry loads the wasm, a prompt
// streams, relay calls appear as cards and act in the sandbox once allowed, for every style; a
// durable halt shows its JSON and resumes from it; any prompt gets a sensible answer; the
// conversation is remembered across messages and a reload (localStorageStore); Stop aborts a
// run mid-stream and while a card waits; a key the provider refuses shows as an error.
// Screenshots go to test-output/.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { serveRepository } from "../demo/serve.mjs";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { chromium } = createRequire(path.join(root, "tools/js/package.json"))("playwright-core");
const shots = path.join(root, "test-output");
let server, browser, url;

before(async () => {
  server = await serveRepository(0);
  url = `http://127.0.0.1:${server.address().port}/www/index.html`;
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"] });
  fs.mkdirSync(shots, { recursive: true });
});
after(async () => { await browser?.close(); server?.close(); });

async function open() {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  page.on("pageerror", (e) => console.error("page error:", e));
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready === "yes");
  return page;
}

/** Sends a prompt and waits for the turn to end with `until` (default "done"). */
async function ask(page, prompt, until = "done") {
  await page.fill("#prompt", prompt);
  await page.click("#send");
  await status(page, until);
  return page.evaluate(() => document.body.dataset.answer);
}

const texts = (page, cls) => page.locator(`#chat .${cls}`).allTextContents();

const status = (page, s) => page.waitForFunction((want) => document.body.dataset.status === want, s, { timeout: 10_000 });

/** Answers every card (each relay call asks on its own) until the run reaches `until`. */
async function answerAll(page, button, until) {
  for (let i = 0; i < 10; i++) {
    await page.waitForFunction((u) => document.body.dataset.status === u || document.querySelector(".card"), until, { timeout: 10_000 });
    if (await page.evaluate((u) => document.body.dataset.status === u && !document.querySelector(".card"), until)) return;
    await page.locator(`.card .${button}`).first().click();
  }
  throw new Error(`never reached ${until}`);
}

test("a relay round trip in every style, approved in the page, acting in the sandbox", async () => {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready === "yes");
  for (const style of ["openai", "responses", "anthropic", "gemini"]) {
    await page.selectOption("#style", style);
    await page.fill("#prompt", "Add “Buy milk” to my list");
    await page.click("#ask button");
    await answerAll(page, "allow", "done"); // type, click (one card each), then read_text
    const answer = await page.evaluate(() => document.body.dataset.answer);
    assert.match(answer, /^Added “Buy milk”\. Your list now reads: Water the plants; Buy milk/, style);
    if (style === "openai") await page.screenshot({ path: path.join(shots, "www-relay-done.png") });
  }
  assert.equal(await page.locator("#todo-list li").count(), 5, "four items added, one per style");
});

test("a durable halt shows its JSON and resumes from it", async () => {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready === "yes");
  await page.selectOption("#mode", "halt");
  await page.selectOption("#style", "anthropic");
  await page.click(".suggest");
  await status(page, "halted");
  const saved = JSON.parse(await page.inputValue("#state"));
  assert.equal(saved.schemaVersion, 2);
  assert.equal(saved.pending.kind, "tool_call");
  await page.screenshot({ path: path.join(shots, "www-halted.png") });
  // The halt is durable: after a reload the page finds it in localStorage and offers to resume.
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.ready === "yes");
  assert.equal(await page.evaluate(() => document.body.dataset.status), "halted");
  assert.equal(JSON.parse(await page.inputValue("#state")).pending.id, saved.pending.id);
  await page.click("#resume");
  await answerAll(page, "allow", "halted"); // type + click (one card: a durable halt merges them), then it halts on read_text
  await page.click("#resume");
  await answerAll(page, "allow", "done");
  assert.match(await page.evaluate(() => document.body.dataset.answer), /Buy milk/);
  // a declined call leaves the sandbox alone
  await page.selectOption("#mode", "wait");
  const before = await page.locator("#todo-list li").count();
  await page.fill("#prompt", "Add “Buy milk” to my list");
  await page.click("#send");
  await answerAll(page, "decline", "done");
  assert.equal(await page.locator("#todo-list li").count(), before);
});

test("any prompt gets a sensible answer, with the token usage of its turn", async () => {
  const page = await open();
  assert.match(await ask(page, "hello"), /^Hello! I'm the scripted model/);
  assert.equal(await ask(page, "What is 12 * 7?"), "12 * 7 = 84");
  assert.match(await ask(page, "Why is the sky blue?"), /^Good question: “Why is the sky blue”/);
  await page.selectOption("#style", "gemini"); // the conversation moves to another style
  assert.match(await ask(page, "What did I say so far?"), /^So far you said: “hello”, “What is 12 \* 7\?”, “Why is the sky blue\?”\.$/);
  const usage = await texts(page, "usage");
  assert.equal(usage.length, 4, "one usage line per turn");
  for (const line of usage) assert.match(line, /^1 model call · \d+ tokens \(\d+ in, \d+ out\)$/);
  assert.equal(await page.locator(".tool").count(), 0, "no tool was used for plain questions");
  await page.screenshot({ path: path.join(shots, "www-arbitrary-prompt.png") });
});

test("the conversation is remembered across messages and survives a reload", async () => {
  const page = await open();
  assert.match(await ask(page, "My name is Ada"), /^Nice to meet you, Ada!/);
  await page.fill("#prompt", "Add “Tea” to my list");
  await page.click("#send");
  await answerAll(page, "allow", "done");
  assert.match(await page.evaluate(() => document.body.dataset.answer), /^Added “Tea”\. Your list now reads: Water the plants; Tea/);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("toolnexus-www:www-demo")));
  assert.equal(stored.schemaVersion, 2);
  assert.equal(stored.pending, undefined);
  const before = await texts(page, "msg:not(.notice)");

  await page.reload();
  await page.waitForFunction(() => document.body.dataset.ready === "yes");
  const restored = await texts(page, "msg:not(.notice)");
  // What the run showed live (calls, results, usage) is what the store gives back; the per-call
  // results the page printed while acting are the stored tool results.
  assert.deepEqual(restored.filter((t) => !t.startsWith("✓")), before.filter((t) => !t.startsWith("✓")));
  assert.match((await texts(page, "notice")).join(), /Restored \d+ messages from localStorage/);
  assert.deepEqual(await page.locator("#todo-list li").allTextContents(), ["Water the plants", "Tea"], "the sandbox is kept too");
  assert.match(await ask(page, "What is my name?"), /^Your name is Ada: you told me earlier/);
  await page.screenshot({ path: path.join(shots, "www-reload-memory.png") });

  await page.click("#reset");
  assert.equal(await page.locator("#chat .msg").count(), 0);
  assert.equal(await page.evaluate(() => localStorage.getItem("toolnexus-www:www-demo")), null);
  assert.deepEqual(await page.locator("#todo-list li").allTextContents(), ["Water the plants"]);
  assert.match(await ask(page, "What is my name?"), /^You haven't told me your name yet/);
});

test("Stop aborts a run mid-stream, and while a card waits; the conversation goes on", async () => {
  const page = await open();
  await page.fill("#prompt", "Tell me a long story");
  await page.click("#send");
  await page.waitForFunction(() => (document.querySelector(".assistant")?.textContent.length ?? 0) > 60);
  assert.ok(await page.isVisible("#busy"), "the busy indicator shows");
  assert.ok(await page.isVisible("#stop") && !(await page.isVisible("#send")), "Stop replaces Send");
  await page.screenshot({ path: path.join(shots, "www-busy.png") });
  await page.click("#stop");
  await status(page, "stopped");
  const partial = await page.textContent(".assistant");
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(await page.textContent(".assistant"), partial, "no text arrives after Stop");
  assert.ok(partial.length < 400 && !partial.endsWith("The end."), "the story was cut short");
  assert.ok(!(await page.isVisible("#busy")) && (await page.isVisible("#send")));
  await page.screenshot({ path: path.join(shots, "www-stopped.png") });

  // Stop while a relay call waits for you: the card goes, nothing acts in the sandbox, and the
  // stored conversation is not left halted.
  await page.fill("#prompt", "Add “Tea” to my list");
  await page.click("#send");
  await page.waitForSelector(".card");
  await page.click("#stop");
  await status(page, "stopped");
  assert.equal(await page.locator(".card").count(), 0);
  assert.equal(await page.locator("#todo-list li").count(), 1);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("toolnexus-www:www-demo")));
  assert.equal(stored.pending, undefined, "the halted turn was closed");
  assert.match(await ask(page, "What did I say so far?"), /“Add “Tea” to my list”/);
});

test("a key the provider refuses shows as an error, with Anthropic's browser header sent", async () => {
  const page = await open();
  const seen = [];
  await page.route("https://api.anthropic.com/**", (route) => {
    const req = route.request();
    const cors = { "access-control-allow-origin": "*", "access-control-allow-headers": "*", "access-control-allow-methods": "POST, OPTIONS" };
    if (req.method() === "OPTIONS") return route.fulfill({ status: 204, headers: cors });
    seen.push(req.headers());
    return route.fulfill({ status: 401, headers: { ...cors, "content-type": "application/json" },
      body: JSON.stringify({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }) });
  });
  await page.selectOption("#style", "anthropic");
  await page.click("#real summary");
  await page.fill("#apiKey", "sk-ant-not-a-real-key");
  await page.dispatchEvent("#apiKey", "change");
  assert.match(await page.textContent("#badge"), /^anthropic · claude/);
  await ask(page, "hello", "error");
  assert.match((await texts(page, "error")).join(), /provider_http: LLM 401: check apiKey: the provider did not accept it \(the provider.s reply is withheld: it can echo a key\) · The provider refused the API key/);
  assert.equal(seen.length, 1, "a 401 is not retried");
  assert.equal(seen[0]["anthropic-dangerous-direct-browser-access"], "true");
  assert.equal(seen[0]["x-api-key"], "sk-ant-not-a-real-key");
  assert.ok(!(await page.evaluate(() => JSON.stringify({ ...localStorage }))).includes("sk-ant"), "the key is never stored");
  await page.screenshot({ path: path.join(shots, "www-refused-key.png") });
});

test("an image attached to a prompt reaches the model in every style", async () => {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready === "yes");
  const png = fs.readFileSync(path.join(root, "tests/fixtures/images/dot.png"));
  for (const style of ["openai", "responses", "anthropic", "gemini"]) {
    await page.selectOption("#style", style);
    await page.setInputFiles("#image", { name: "dot.png", mimeType: "image/png", buffer: png });
    await page.fill("#prompt", "what is this?");
    await page.click("#ask button");
    await status(page, "done");
    assert.equal(await page.evaluate(() => document.body.dataset.answer), `You sent image/png of ${png.length} bytes.`, style);
    await page.evaluate(() => { delete document.body.dataset.status; });
  }
  await page.screenshot({ path: path.join(shots, "www-image-prompt.png") });
});
