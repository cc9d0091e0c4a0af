// The real @ai-sdk/react useChat in headless Chromium (Playwright) against a Worker in workerd
// (Miniflare): a React page bundled with esbuild, served with the Worker's /api/chat behind one
// origin, typed into and clicked. A relay call answered with addToolOutput; three parallel relay
// calls answered out of order (one resume); an approval (the tool runs once); a durable halt kept
// in the Worker's KV store (sendState: false), answered after the Worker restarted; and the
// store route under a duplicated resume: the approved tool runs once, the other gets `conflict`.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Miniflare, moduleOptions, workerRoot } from "../workerd/harness.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const tools = createRequire(path.join(repo, "tools/js/package.json"));
const { chromium } = tools("playwright-core");
const esbuild = tools("esbuild");

let root, kv, mf, server, browser, origin;
const requests = [];
const duplicates = []; // the two responses of each duplicated resume
const start = () => new Miniflare({ ...moduleOptions(root), kvNamespaces: ["KV"], kvPersist: kv });
before(async () => {
  root = workerRoot("tnx-ui-browser-", "../ui/browser/worker.mjs");
  kv = fs.mkdtempSync(path.join(os.tmpdir(), "tnx-ui-kv-"));
  fs.copyFileSync(path.join(repo, "demo/scripted-logic.mjs"), path.join(root, "scripted-logic.mjs"));
  mf = start();
  const page = (await esbuild.build({ entryPoints: [path.join(here, "browser/page.src.jsx")], bundle: true, format: "esm", write: false, logLevel: "warning",
    jsx: "automatic", define: { "process.env.NODE_ENV": '"production"' }, nodePaths: [path.join(here, "node_modules")] })).outputFiles[0].text;
  // One origin: the page, and /api/chat forwarded to the Worker, its body streamed as it comes.
  server = http.createServer(async (req, res) => {
    const url = new URL(req.url, "http://x");
    if (url.pathname == "/") return res.writeHead(200, { "content-type": "text/html" }).end('<!doctype html><meta charset="utf-8"><div id="root"></div><script type="module" src="/page.js"></script>');
    if (url.pathname == "/page.js") return res.writeHead(200, { "content-type": "text/javascript" }).end(page);
    if (url.pathname != "/api/chat" || req.method != "POST") return res.writeHead(404).end(); // the favicon
    let body = "";
    for await (const c of req) body += c;
    const json = JSON.parse(body);
    requests.push(json);
    const forward = () => mf.dispatchFetch(`http://worker${url.pathname}`, { method: req.method, headers: { "content-type": "application/json" }, body });
    if (json.dup && json.messages.at(-1).role == "assistant") {
      // The same resume twice at once (a retry, a second tab): both read to the end, the page
      // gets the one that ran (what a retrying proxy hands back), the other is kept for the test.
      const both = await Promise.all([forward(), forward()].map(async (p) => { const r = await p; return { r, text: await r.text() }; }));
      duplicates.push(both.map((x) => x.text));
      const ran = both.find((x) => !x.text.includes('"type":"error"')) ?? both[0];
      res.writeHead(ran.r.status, Object.fromEntries(ran.r.headers));
      return res.end(ran.text);
    }
    const r = await forward();
    res.writeHead(r.status, Object.fromEntries(r.headers));
    if (r.body) for await (const chunk of r.body) res.write(chunk);
    res.end();
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  origin = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"] });
});
after(async () => {
  await browser?.close();
  await mf?.dispose();
  server?.close();
  for (const d of [root, kv]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

async function open(query = "") {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${origin}/${query}`);
  return { page, errors };
}

async function ask(page, prompt) {
  await page.fill("#prompt", prompt);
  await page.click("#send");
}

/** The last assistant text once the chat is ready again and it has one. */
async function answer(page, hasText) {
  const text = page.locator('.message[data-role="assistant"] .text');
  await text.filter({ hasText }).waitFor({ timeout: 15_000 }).catch(async (e) => {
    throw new Error(`no answer (${await page.textContent("body")}; ${await page.evaluate(() => document.body.dataset.error)}): ${e.message}`);
  });
  await page.waitForFunction(() => document.body.dataset.status == "ready");
  return text.last().textContent();
}

const states = (page) => page.locator(".tool").evaluateAll((ps) => ps.map((p) => p.dataset.state));
const resumes = (from) => requests.slice(from).filter((r) => r.messages.at(-1).role == "assistant").length;

test("a relay call answered with addToolOutput", async () => {
  const { page, errors } = await open();
  await ask(page, "#one buy it");
  assert.equal(await answer(page, "Done."), "Done. click → clicked #buy");
  assert.deepEqual(await states(page), ["output-available"]);
  assert.deepEqual(errors, []);
  await page.close();
});

test("three parallel relay calls answered out of order: the run resumes once, with all three", async () => {
  const { page, errors } = await open();
  const from = requests.length;
  await ask(page, "#three-clicks please");
  assert.equal(await answer(page, "Clicked:"), "Clicked: click → clicked #a; click → clicked #b; click → clicked #c");
  assert.deepEqual(await page.evaluate(() => globalThis.answered), ["#c", "#b", "#a"]);
  assert.deepEqual(await states(page), ["output-available", "output-available", "output-available"]);
  assert.equal(requests.length - from, 2, "the prompt, then one resume once every output was in");
  assert.deepEqual(errors, []);
  fs.mkdirSync(path.join(repo, "test-output"), { recursive: true });
  await page.screenshot({ path: path.join(repo, "test-output/ui-browser-worker.png") });
  await page.close();
});

test("an approval clicked in the page: the tool runs once, in the Worker", async () => {
  const { page, errors } = await open();
  await ask(page, "#approve delete it");
  await page.locator(".approve").waitFor({ timeout: 15_000 });
  assert.deepEqual(await states(page), ["approval-requested"]);
  assert.equal(await mf.getKVNamespace("KV").then((ns) => ns.get("deleted")), null);
  await page.click(".approve");
  assert.equal(await answer(page, "Done."), "Done. delete_file → deleted /tmp/a");
  assert.deepEqual(await states(page), ["output-available"]);
  assert.equal(await mf.getKVNamespace("KV").then((ns) => ns.get("deleted")), "1");
  assert.deepEqual(errors, []);
  await page.close();
});

test("a durable halt kept in the Worker's store, answered after the Worker restarted", async () => {
  const { page, errors } = await open("?store&hold");
  const from = requests.length;
  await ask(page, "#one buy it");
  await page.locator(".perform").waitFor({ timeout: 15_000 });
  await page.waitForFunction(() => document.body.dataset.status == "ready");
  // The state is in the Worker's KV, not in the message (sendState: false).
  const body = await page.textContent("body");
  assert.ok(!body.includes("schemaVersion"));
  const keys = (await (await mf.getKVNamespace("KV")).list()).keys.map((k) => k.name);
  assert.ok(keys.some((k) => k != "deleted"), `the halted conversation is in KV: ${keys}`);
  await mf.dispose(); // the Worker goes away; its KV stays (persisted)
  mf = start();
  await page.click(".perform");
  assert.equal(await answer(page, "Done."), "Done. click → clicked #buy");
  assert.equal(resumes(from), 1);
  assert.ok(!requests.slice(from).some((r) => JSON.stringify(r).includes("data-toolnexus-state")), "no state travelled in the messages");
  assert.deepEqual(errors, []);
  await page.close();
});

test("the store route under duplicate requests: the approved tool runs exactly once, the other resume is refused", async () => {
  const { page, errors } = await open("?store&dup");
  const kv = await mf.getKVNamespace("KV");
  const before = Number((await kv.get("deleted")) ?? 0);
  await ask(page, "#approve delete it");
  await page.locator(".approve").waitFor({ timeout: 15_000 });
  await page.waitForFunction(() => document.body.dataset.status == "ready");
  await page.click(".approve");
  assert.equal(await answer(page, "Done."), "Done. delete_file → deleted /tmp/a");
  assert.equal(Number(await kv.get("deleted")), before + 1, "one run of the tool for two resumes");
  assert.equal(duplicates.length, 1);
  const refused = duplicates[0].filter((t) => t.includes('"type":"error"'));
  assert.equal(refused.length, 1, "exactly one of the two resumes ran");
  assert.match(refused[0], /"errorText":"conflict: (?!conflict: )/, "the store's claim refused it before it ran anything");
  assert.deepEqual(errors, []);
  await page.close();
});
