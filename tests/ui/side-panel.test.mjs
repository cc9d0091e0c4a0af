// examples/use-chat-side-panel, built as its README says (Vite, the repository's pinned Vite 8)
// against the package as a user gets it (the packed tarball, installed by name, beside the AI
// SDK's packages at the versions the example pins), then loaded unpacked in headless Chromium
// (Playwright): the panel's @ai-sdk/react useChat, typed into and submitted, streams the
// worker's answer; `page_title` (a relay tool) is answered by the panel's onToolCall from the
// tab the user looks at. (Its `resumable` answers are tested in tests/ui/extension.test.mjs.)
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const tools = createRequire(path.join(repo, "tools/js/package.json"));
const bundlers = createRequire(path.join(repo, "tests/bundlers/package.json"));
const { chromium } = tools("playwright-core");
const { startScriptedModel, SCENARIOS } = await import(path.join(repo, "demo/scripted-model.mjs"));

let scratch, model, context;
before(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "tnx-use-chat-panel-"));
  model = await startScriptedModel({ scenarios: { ...SCENARIOS, default: [
    { calls: [["lookup_price", { item: "blue mug" }], ["page_title", {}]] }, { text: "Done. {{results}}" }] } });
});
after(async () => {
  await context?.close();
  await model?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** The example folder as a user copies it, beside the packed package and its pinned dependencies. */
function project() {
  const tgz = execFileSync("npm", ["pack", path.join(repo, "pkg"), "--pack-destination", scratch, "--silent"], { encoding: "utf8" }).trim().split("\n").pop();
  const example = JSON.parse(fs.readFileSync(path.join(repo, "examples/use-chat-side-panel/package.json"), "utf8"));
  const deps = Object.entries(example.dependencies).filter(([n]) => n !== "toolnexus-wasm").map(([n, v]) => `${n}@${v}`);
  fs.writeFileSync(path.join(scratch, "package.json"), '{ "private": true }\n');
  // The same versions tests/ui installed (setup.sh), from npm's cache where it has them: `npm ci`
  // there caches the tarballs but not the registry's metadata, which a fresh cache then fetches.
  execFileSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", `./${tgz}`, ...deps], { cwd: scratch });
  const dir = path.join(scratch, "use-chat-side-panel");
  fs.cpSync(path.join(repo, "examples/use-chat-side-panel"), dir, {
    recursive: true, filter: (f) => !/[\\/](node_modules|dist)$/.test(f) && !f.endsWith("package-lock.json"),
  });
  return dir;
}

test("examples/use-chat-side-panel: built with Vite from the tarball, useChat in the panel drives the worker's loop, a relay tool answered in the panel", async () => {
  const dir = project();
  const { build, createLogger } = await import(bundlers.resolve("vite"));
  const warnings = [];
  const logger = createLogger("warn");
  const customLogger = { ...logger, warn: (msg, o) => { warnings.push(msg); logger.warn(msg, o); }, warnOnce: (msg, o) => { warnings.push(msg); logger.warnOnce(msg, o); } };
  await build({ root: dir, configFile: path.join(dir, "vite.config.js"), customLogger, logLevel: "warn" });
  assert.deepEqual(warnings, [], "the recipe builds without warnings");
  const dist = path.join(dir, "dist");
  context = await chromium.launchPersistentContext(path.join(scratch, "profile"), {
    executablePath: "/usr/bin/chromium", headless: true, ignoreDefaultArgs: ["--disable-extensions"],
    args: [`--disable-extensions-except=${dist}`, `--load-extension=${dist}`, "--no-sandbox", "--disable-gpu", "--disable-quic",
      "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"],
  });
  const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker", { timeout: 15_000 }));
  const extId = new URL(sw.url()).host;
  await sw.evaluate((baseUrl) => chrome.storage.local.set({ apiKey: "sk-use-chat", baseUrl }), `${model.url}/v1`);

  const panel = await context.newPage();
  const errors = [];
  panel.on("pageerror", (e) => errors.push(String(e)));
  await panel.goto(`chrome-extension://${extId}/panel.html`);
  const shop = await context.newPage();
  await shop.goto("data:text/html,<title>Blue Mug Shop</title><p>Mugs");
  await shop.bringToFront();
  await panel.fill("#prompt", "What does the blue mug cost, and what page am I on?");
  await panel.evaluate(() => document.querySelector("form")?.requestSubmit());
  const answer = panel.locator('.message[data-role="assistant"] .text');
  await answer.filter({ hasText: "Done." }).waitFor({ timeout: 20_000 }).catch(async (e) => {
    throw new Error(`no answer in the panel (${await panel.textContent("body")}): ${e.message}`);
  });
  await panel.waitForFunction(() => document.body.dataset.status == "ready");
  assert.equal(await answer.last().textContent(), "Done. lookup_price → $12.50; page_title → Blue Mug Shop");
  assert.deepEqual(await panel.locator(".tool").allTextContents(), ["lookup_price → $12.50", "page_title → Blue Mug Shop"]);
  assert.equal(model.requests.at(-1).headers.authorization, "Bearer sk-use-chat");
  assert.deepEqual(errors, []);
  fs.mkdirSync(path.join(repo, "test-output"), { recursive: true });
  await panel.screenshot({ path: path.join(repo, "test-output/use-chat-side-panel.png") });
  await panel.close();
});
