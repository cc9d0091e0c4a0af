// The www demo page in headless Chromium (Playwright): the browser entry loads the wasm, a prompt
// streams, relay calls appear as cards and act in the sandbox once allowed, for every style; and
// a durable halt shows its JSON and resumes from it. Screenshots go to test-output/.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { chromium } = createRequire(path.join(root, "tools/js/package.json"))("playwright-core");
const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".wasm": "application/wasm", ".json": "application/json" };
const shots = path.join(root, "test-output");
let server, browser, url;

before(async () => {
  server = http.createServer((req, res) => {
    const file = path.join(root, decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (!file.startsWith(root) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) { res.writeHead(404); return res.end(); }
    res.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${server.address().port}/www/index.html`;
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"] });
  fs.mkdirSync(shots, { recursive: true });
});
after(async () => { await browser?.close(); server?.close(); });

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
  for (const style of ["openai", "anthropic", "gemini"]) {
    await page.selectOption("#style", style);
    await page.fill("#prompt", "Add “Buy milk” to my list");
    await page.click("#ask button");
    await answerAll(page, "allow", "done"); // type, click (one card each), then read_text
    const answer = await page.evaluate(() => document.body.dataset.answer);
    assert.match(answer, /^Added it\. Your list now reads: Water the plants; Buy milk/, style);
    if (style === "openai") await page.screenshot({ path: path.join(shots, "www-relay-done.png") });
  }
  assert.equal(await page.locator("#todo-list li").count(), 4, "three items added, one per style");
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
  assert.equal(saved.schemaVersion, 1);
  assert.equal(saved.pending.kind, "tool_call");
  await page.screenshot({ path: path.join(shots, "www-halted.png") });
  await page.click("#resume");
  await answerAll(page, "allow", "halted"); // type + click (one card: a durable halt merges them), then it halts on read_text
  await page.click("#resume");
  await answerAll(page, "allow", "done");
  assert.match(await page.evaluate(() => document.body.dataset.answer), /Buy milk/);
  // a declined call leaves the sandbox alone
  await page.selectOption("#mode", "wait");
  const before = await page.locator("#todo-list li").count();
  await page.click(".suggest");
  await answerAll(page, "decline", "done");
  assert.equal(await page.locator("#todo-list li").count(), before);
});

test("an image attached to a prompt reaches the model in every style", async () => {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready === "yes");
  const png = fs.readFileSync(path.join(root, "tests/fixtures/images/dot.png"));
  for (const style of ["openai", "anthropic", "gemini"]) {
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
