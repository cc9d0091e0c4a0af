// The demo page rebuilt on useChat (www/chat/, built by www/chat/build.mjs) in headless
// Chromium: the loop in the page behind a ChatTransport, the embedded scripted model offline;
// relay calls are useChat's client tools, each a card allowed (acting in the sandbox) or declined,
// the halted run resuming once the turn's calls all have answers; a plain question; Stop.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { serveRepository } from "../demo/serve.mjs";
import { build } from "../www/chat/build.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { chromium } = createRequire(path.join(root, "tools/js/package.json"))("playwright-core");
let server, browser, url;

before(async () => {
  await build();
  server = await serveRepository(0);
  url = `http://127.0.0.1:${server.address().port}/www/chat/index.html`;
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"] });
});
after(async () => { await browser?.close(); server?.close(); });

async function open() {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready === "yes");
  return { page, errors };
}

/** Clicks `button` on every card until the chat is ready with an answer. */
async function answerAll(page, button) {
  for (let i = 0; i < 10; i++) {
    await page.waitForFunction(() => document.body.dataset.status === "waiting" || (document.body.dataset.status === "ready" && document.body.dataset.answer !== undefined), null, { timeout: 10_000 });
    if (await page.evaluate(() => document.body.dataset.status === "ready")) return page.evaluate(() => document.body.dataset.answer);
    await page.locator(`.card .${button}`).first().click();
  }
  throw new Error("the chat never settled");
}

test("useChat's client tools: each relay call a card, allowed one by one, acting in the sandbox", async () => {
  const { page, errors } = await open();
  await page.fill("#prompt", "Add “Buy milk” to my list");
  await page.click("#send");
  await page.waitForSelector(".card");
  assert.equal(await page.locator(".card").count(), 2, "the turn's two calls, each on its own card");
  const answer = await answerAll(page, "allow");
  assert.match(answer, /^Added “Buy milk”\. Your list now reads: Water the plants; Buy milk/);
  assert.deepEqual(await page.locator("#todo-list li").allTextContents(), ["Water the plants", "Buy milk"]);
  assert.deepEqual(await page.locator(".tool").allTextContents(), ['✓ type: typed "Buy milk"', "✓ click: clicked #todo-add", "✓ read_text: Water the plants; Buy milk"]);
  fs.mkdirSync(path.join(root, "test-output"), { recursive: true });
  await page.screenshot({ path: path.join(root, "test-output/www-chat-relay.png") });
  // The conversation goes on: the model reads the earlier turns from useChat's messages.
  await page.fill("#prompt", "What is 12 * 7?");
  await page.click("#send");
  await page.waitForFunction(() => document.body.dataset.status === "ready" && document.body.dataset.answer === "12 * 7 = 84", null, { timeout: 10_000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test("a declined call leaves the sandbox alone; Stop ends a long answer", async () => {
  const { page, errors } = await open();
  await page.fill("#prompt", "Add “Tea” to my list");
  await page.click("#send");
  await answerAll(page, "decline");
  assert.deepEqual(await page.locator("#todo-list li").allTextContents(), ["Water the plants"]);
  assert.ok((await page.locator(".tool").allTextContents()).every((t) => t.startsWith("✗")));
  await page.fill("#prompt", "Tell me a long story");
  await page.click("#send");
  await page.waitForFunction(() => [...document.querySelectorAll(".msg.assistant")].at(-1)?.textContent.length > 60);
  await page.click("#stop");
  await page.waitForFunction(() => document.body.dataset.status === "ready");
  const partial = await page.locator(".msg.assistant").last().textContent();
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(await page.locator(".msg.assistant").last().textContent(), partial, "no text after Stop");
  assert.ok(!partial.endsWith("The end."));
  assert.deepEqual(errors, []);
  await page.close();
});
