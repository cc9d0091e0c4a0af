// examples/side-panel, built as its README says (Vite, the repository's pinned Vite 8) against the
// package as a user gets it (the packed tarball, installed by name), then loaded unpacked in
// headless Chromium (Playwright): the service worker registers with its toolkit declared at
// module level, the toolbar button is set to open the panel, and a prompt sent from the panel
// comes back as a streamed answer with both tools' results (`lookup_price` run in the worker,
// `page_title` a relay call answered from the active tab), from the scripted model.
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
  if (!fs.existsSync(path.join(repo, "pkg/package.json"))) throw new Error("pkg/ is not built: run ./scripts/build.sh");
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "tnx-side-panel-"));
  // The model calls both tools, then answers with their results.
  model = await startScriptedModel({ scenarios: { ...SCENARIOS, default: [
    { calls: [["lookup_price", { item: "blue mug" }], ["page_title", {}]] }, { text: "Done. {{results}}" }] } });
});
after(async () => {
  await context?.close();
  await model?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** The example folder as a user copies it, beside the packed package installed by name. */
function project() {
  const tgz = execFileSync("npm", ["pack", path.join(repo, "pkg"), "--pack-destination", scratch, "--silent"], { encoding: "utf8" }).trim().split("\n").pop();
  fs.writeFileSync(path.join(scratch, "package.json"), '{ "private": true }\n');
  execFileSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--offline", "--loglevel=error", `./${tgz}`], { cwd: scratch });
  const dir = path.join(scratch, "side-panel");
  fs.cpSync(path.join(repo, "examples/side-panel"), dir, {
    recursive: true, filter: (f) => !/[\\/](node_modules|dist)$/.test(f) && !f.endsWith("package-lock.json"),
  });
  return dir;
}

test("examples/side-panel: built with Vite from the tarball, the panel streams an answer from the service worker", async () => {
  const dir = project();
  const { build, createLogger } = await import(bundlers.resolve("vite"));
  const warnings = [];
  const logger = createLogger("warn");
  const customLogger = { ...logger, warn: (msg, o) => { warnings.push(msg); logger.warn(msg, o); }, warnOnce: (msg, o) => { warnings.push(msg); logger.warnOnce(msg, o); } };
  await build({ root: dir, configFile: path.join(dir, "vite.config.js"), customLogger });
  assert.deepEqual(warnings, [], "the recipe builds without warnings");
  const dist = path.join(dir, "dist");
  for (const f of ["manifest.json", "sw.js", "panel.html", "panel.js"]) assert.ok(fs.existsSync(path.join(dist, f)), `dist/${f}`);
  assert.ok(fs.readdirSync(path.join(dist, "assets")).some((f) => f.endsWith(".wasm")), "the wasm is emitted as an asset");
  assert.doesNotMatch(fs.readFileSync(path.join(dist, "sw.js"), "utf8"), /from\s*["']toolnexus-wasm/, "the worker is bundled");

  context = await chromium.launchPersistentContext(path.join(scratch, "profile"), {
    executablePath: "/usr/bin/chromium", headless: true, ignoreDefaultArgs: ["--disable-extensions"],
    args: [`--disable-extensions-except=${dist}`, `--load-extension=${dist}`, "--no-sandbox", "--disable-gpu", "--disable-quic",
      "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"],
  });
  const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker", { timeout: 15_000 }));
  const extId = new URL(sw.url()).host;
  assert.deepEqual(await sw.evaluate(() => chrome.sidePanel.getPanelBehavior()), { openPanelOnActionClick: true });
  // What the README says to type in the worker's console, with the scripted model's URL as baseUrl.
  await sw.evaluate((baseUrl) => chrome.storage.local.set({ apiKey: "sk-side-panel", baseUrl }), `${model.url}/v1`);

  const panel = await context.newPage();
  const errors = [];
  panel.on("pageerror", (e) => errors.push(e));
  await panel.goto(`chrome-extension://${extId}/panel.html`);
  // The tab the user looks at (the panel runs in a tab here, so the shop's tab is brought to front).
  const shop = await context.newPage();
  await shop.goto("data:text/html,<title>Blue Mug Shop</title><p>Mugs");
  await shop.bringToFront();
  await panel.fill("#prompt", "What does the blue mug cost, and what page am I on?");
  await panel.evaluate(() => document.querySelector("form")?.requestSubmit());
  await panel.waitForFunction(() => document.body.dataset.status, null, { timeout: 20_000 }).catch(async (e) => {
    throw new Error(`no answer in the panel (${await panel.textContent("body")}): ${e.message}`);
  });
  assert.equal(await panel.evaluate(() => document.body.dataset.status), "done", await panel.textContent("#answer"));
  assert.equal(await panel.textContent("#answer"),
    "[lookup_price → $12.50] [page_title → Blue Mug Shop] Done. lookup_price → $12.50; page_title → Blue Mug Shop");
  assert.equal(model.requests.at(-1).headers.authorization, "Bearer sk-side-panel");
  assert.ok(model.requests.every((r) => r.body.stream === true), "the model was asked to stream");
  assert.deepEqual(errors, []);
  // The conversation was kept under the id the worker gives it.
  const stored = await sw.evaluate(() => chrome.storage.local.get(null));
  assert.ok(Object.keys(stored).some((k) => k.includes("side-panel")), `kept in chrome.storage.local (keys: ${Object.keys(stored).join(", ")})`);
});
