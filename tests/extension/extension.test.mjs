// chromeStorageStore in a real MV3 extension service worker, in Chromium driven by Playwright:
// an ask parks on a relay call, the service worker is stopped (as Chrome does to an idle worker),
// and the restarted worker resumes the conversation from chrome.storage.local.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { startScriptedModel } from "../../demo/scripted-model.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const { chromium } = createRequire(path.resolve(here, "../../tools/js/package.json"))("playwright-core");

let model, extDir, userDataDir, context;
before(async () => {
  model = await startScriptedModel();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "tnx-ext-"));
  extDir = path.join(root, "ext");
  userDataDir = path.join(root, "profile");
  fs.cpSync(path.join(here, "ext"), extDir, { recursive: true });
  fs.cpSync(path.resolve(here, "../../pkg"), path.join(extDir, "pkg"), { recursive: true });
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    ignoreDefaultArgs: ["--disable-extensions"],
    args: [`--disable-extensions-except=${extDir}`, `--load-extension=${extDir}`, "--no-sandbox", "--disable-gpu",
      "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"],
  });
});
after(async () => { await context?.close(); await model.close(); fs.rmSync(path.dirname(extDir), { recursive: true, force: true }); });

async function worker() {
  const live = context.serviceWorkers().filter((w) => w.url().endsWith("/sw.js"));
  return live.at(-1) ?? context.waitForEvent("serviceworker", { timeout: 20_000 });
}

/** Runs `cmd` in the service worker through a message from an extension page (which also
 * wakes a stopped worker, as any extension event does). */
async function command(page, cmd, cfg) {
  const r = await page.evaluate(([cmd, cfg]) => chrome.runtime.sendMessage({ cmd, cfg }), [cmd, cfg]);
  if (r?.error) throw new Error(r.error);
  return r.value;
}

test("a service worker stopped while a relay call is parked resumes from chrome.storage.local", async () => {
  const sw = await worker();
  const extId = new URL(sw.url()).host;
  const page = await context.newPage();
  await page.goto(`chrome-extension://${extId}/wake.html`);
  await page.waitForFunction(() => document.title.startsWith("awake"));
  const cdp = await context.newCDPSession(page);
  const versions = new Map();
  cdp.on("ServiceWorker.workerVersionUpdated", (e) => { for (const v of e.versions) versions.set(v.versionId, v); });
  await cdp.send("ServiceWorker.enable");

  for (const style of ["openai", "anthropic"]) {
    const cfg = { baseUrl: style === "openai" ? `${model.url}/v1` : model.url, style, id: `sw-${style}` };
    const parked = await command(page, "startParked", cfg);
    const raw = await page.evaluate(() => chrome.storage.local.get(null));
    const saved = raw[`toolnexus:${cfg.id}`];
    assert.equal(saved.pending.id, parked.requestId, "the pending state was in chrome.storage.local before waitFor ran");
    assert.ok(!JSON.stringify(raw).includes("ext-secret"));

    // Stop the worker, as Chrome does to an idle MV3 service worker; its parked Promise dies with it.
    const running = [...versions.values()].filter((v) => v.runningStatus === "running" && v.scriptURL.endsWith("/sw.js"));
    assert.equal(running.length, 1);
    await cdp.send("ServiceWorker.stopWorker", { versionId: running[0].versionId });
    await page.waitForFunction(() => true);
    for (let i = 0; i < 50 && [...versions.values()].some((v) => v.runningStatus === "running"); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(![...versions.values()].some((v) => v.runningStatus === "running"), "the worker stopped");

    const resumed = await command(page, "resumeParked", cfg); // wakes a new worker
    assert.notEqual(resumed.bootId, parked.bootId, "a new service worker instance resumed");
    assert.equal(resumed.status, "done");
    assert.equal(resumed.text, "Summary: lookup_price → $4 for red mug; click → clicked #buy after restart");
    assert.equal(resumed.stored.pending, undefined);
    const next = await command(page, "streamNext", cfg);
    assert.deepEqual(next, { text: "Hello from the scripted model.", status: "done" });
    assert.equal(await command(page, "discard", cfg), null);
    assert.deepEqual(await page.evaluate((k) => chrome.storage.local.get(k), `toolnexus:${cfg.id}`), {}, "discard removed it from chrome.storage.local");
  }
  await page.close();
});

test("the service worker and an extension page racing to resume one halted run: one wins, one conflict", async () => {
  const sw = await worker();
  const extId = new URL(sw.url()).host;
  const page = await context.newPage();
  await page.goto(`chrome-extension://${extId}/race.html`);
  await page.waitForFunction(() => document.title === "race ready");
  const cfg = { baseUrl: `${model.url}/v1`, style: "openai", id: "race-1" };
  assert.deepEqual(await command(page, "startHalted", cfg), { status: "pending" });
  const halted = (await page.evaluate((k) => chrome.storage.local.get(k), `toolnexus:${cfg.id}`))[`toolnexus:${cfg.id}`];
  const both = { ...cfg, pending: halted.pending };
  // Whichever loses gets `conflict`, whether it loses at save (under the Web Lock) or at load
  // (the winner already finished): the timing varies between machines, the outcome must not.
  const [fromWorker, fromPage] = await Promise.all([command(page, "resumeFromWorker", both), page.evaluate((c) => window.resumeFromPage(c), both)]);
  const outcomes = [fromWorker, fromPage].map((o) => o.status ?? o.error).sort();
  assert.deepEqual(outcomes, ["conflict", "done"], JSON.stringify({ fromWorker, fromPage }));
  const stored = (await page.evaluate((k) => chrome.storage.local.get(k), `toolnexus:${cfg.id}`))[`toolnexus:${cfg.id}`];
  assert.equal(stored.pending, undefined);
  const text = JSON.stringify(stored.messages);
  assert.equal((text.match(/clicked by the (worker|page)/g) ?? []).length, 2, "one answer (in the result and the final text)");
  assert.ok(!(text.includes("clicked by the worker") && text.includes("clicked by the page")), "never both");
  await page.close();
});
