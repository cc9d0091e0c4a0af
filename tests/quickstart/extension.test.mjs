// The MV3 extension quick starts, as written, loaded unpacked in headless Chromium (Playwright):
// README.md's example (examples/extension, the package copied in by its one command, run twice
// and after a rebuild) answering a prompt in its side panel, and the package README's extension
// (manifest.json, sw.js, the package copied from node_modules by its command) answering `ask(...)`
// in its service worker's console, from the scripted model (`baseUrl` in storage, as it says).
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { CHROMIUM_ARGS, block, chromium, cleanCopy, projectWithTarball, quickstarts, removeCopy, scriptedModel, sh } from "./readme.mjs";

let copy, model;
before(async () => { copy = cleanCopy("extension"); model = await scriptedModel(); });
after(async () => { await model?.close(); removeCopy(copy); });

/** Chromium with the unpacked extension at `dir`; resolves to { context, sw, extId }. */
async function load(dir, profile) {
  const context = await (await chromium()).launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium", headless: true, ignoreDefaultArgs: ["--disable-extensions"],
    args: [`--disable-extensions-except=${dir}`, `--load-extension=${dir}`, ...CHROMIUM_ARGS],
  });
  const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker", { timeout: 15_000 }));
  return { context, sw, extId: new URL(sw.url()).host };
}

test("README.md: ./scripts/copy-pkg.sh examples/extension, twice and after a rebuild; the side panel answers", async () => {
  const command = block(quickstarts(path.join(copy, "README.md")), "extension", "bash");
  const example = path.join(copy, "examples/extension");
  sh(command, copy);
  sh(command, copy); // again: `cp -r pkg examples/extension/pkg` nested the second copy in pkg/pkg
  assert.ok(!fs.existsSync(path.join(example, "pkg/pkg")), "no nested copy");
  // A rebuild reaches the example (a nested copy left the old build in use).
  const stamp = path.join(copy, "pkg/REBUILT");
  fs.writeFileSync(stamp, "a newer build");
  sh(command, copy);
  assert.equal(fs.readFileSync(path.join(example, "pkg/REBUILT"), "utf8"), "a newer build");
  fs.rmSync(stamp);
  sh(command, copy);
  assert.ok(!fs.existsSync(path.join(example, "pkg/REBUILT")), "the copy is the build as a whole, nothing left of the old one");
  assert.ok(fs.existsSync(path.join(example, "scripted-logic.mjs")));

  const { context, extId } = await load(example, path.join(path.dirname(copy), "profile-example"));
  try {
    const panel = await context.newPage();
    const errors = [];
    panel.on("pageerror", (e) => errors.push(e));
    await panel.goto(`chrome-extension://${extId}/panel.html`);
    await panel.fill("#prompt", "What is 12 * 7?");
    await panel.click("form button");
    await panel.waitForFunction(() => ["done", "error"].includes(document.body.dataset.status), null, { timeout: 15_000 });
    assert.equal(await panel.evaluate(() => document.body.dataset.answer), "12 * 7 = 84", await panel.textContent("body"));
    assert.deepEqual(errors, []);
  } finally { await context.close(); }
});

test("pkg-template/README.md: manifest.json and sw.js with the package copied in; ask() in the worker answers and keeps the conversation", async () => {
  const blocks = quickstarts(path.join(copy, "pkg-template/README.md"));
  const project = projectWithTarball(copy);
  const ext = path.join(project, "extension");
  fs.mkdirSync(ext);
  fs.writeFileSync(path.join(ext, "manifest.json"), block(blocks, "manifest.json", "json"));
  fs.writeFileSync(path.join(ext, "sw.js"), block(blocks, "sw.js", "js"));
  const copyCommand = block(blocks, "extension-copy", "bash");
  sh(copyCommand, project);
  sh(copyCommand, project); // safe to run again
  assert.ok(fs.existsSync(path.join(ext, "toolnexus-wasm/toolnexus_wasm_bg.wasm")));
  assert.ok(!fs.existsSync(path.join(ext, "toolnexus-wasm/toolnexus-wasm")), "no nested copy");

  const { context, sw } = await load(ext, path.join(path.dirname(copy), "profile-pkg"));
  try {
    // What the README says to type in the worker's console, with the scripted model's URL as `baseUrl`.
    const answer = await sw.evaluate(async (baseUrl) => {
      await chrome.storage.local.set({ apiKey: "sk-quickstart", baseUrl });
      return ask("What does the blue mug cost?");
    }, `${model.url}/v1`);
    assert.equal(answer, "Done. lookup_price → $12.50");
    assert.equal(model.requests.at(-1).headers.authorization, "Bearer sk-quickstart");
    // The conversation goes on: the next prompt reaches the model after the first exchange.
    assert.equal(await sw.evaluate(() => ask("And the red one?")), "Done. lookup_price → $12.50");
    const users = model.requests.at(-1).body.messages.filter((m) => m.role === "user").map((m) => m.content);
    assert.deepEqual(users, ["What does the blue mug cost?", "And the red one?"]);
    const stored = await sw.evaluate(() => chrome.storage.local.get(null));
    const conversation = Object.entries(stored).find(([k]) => k.includes("console"));
    assert.ok(conversation, `the conversation is in chrome.storage.local (keys: ${Object.keys(stored).join(", ")})`);
  } finally { await context.close(); }
});
