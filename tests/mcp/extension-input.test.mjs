// examples/extension answering an MCP server's questions (revision 2026-07-28, the official
// `@modelcontextprotocol/server` in tests/mcp/server2026.mjs) in Chromium (Playwright): the
// question is a form in the side panel drawn from its requestedSchema; the run is halted in
// chrome.storage.local while the form waits, Chrome stops the service worker, the person fills in
// and submits the form, and the next worker sends the answer and finishes the run. URL mode is a
// link and Done; Decline and Cancel reach the server as such. The same question asked inside the
// delegating agent's child (`#delegate-book`) names the agent, halts the whole tree and, answered
// in the next worker, finishes the child and then the parent. Screenshots go to test-output/.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { start2026 } from "./server2026.mjs";
import { launchExample } from "../extension/launch.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const shots = path.join(repo, "test-output");

let mcp, context, root, extId;
before(async () => {
  mcp = await start2026();
  ({ context, root } = await launchExample("tnx-ext-input-", { width: 420, height: 760 }));
  const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker"));
  extId = new URL(sw.url()).host;
  const options = await context.newPage();
  await options.goto(`chrome-extension://${extId}/options.html`);
  await options.fill("#mcpName", "docs");
  await options.fill("#mcpUrl", mcp.url);
  await options.click("#addServer");
  await options.waitForSelector("#servers li");
  await options.close();
});
after(async () => { await context?.close(); await mcp?.close(); fs.rmSync(root, { recursive: true, force: true }); });

const status = (panel, s) => panel.waitForFunction((want) => document.body.dataset.status === want, s, { timeout: 15_000 }).catch(async () => {
  throw new Error(`not ${s}; the panel shows: ${await panel.textContent("body")}`);
});
async function send(panel, prompt) {
  await panel.evaluate(() => { delete document.body.dataset.status; });
  await panel.fill("#prompt", prompt);
  await panel.click("#send");
}
const stored = (page) => page.evaluate(async () => (await chrome.storage.local.get("toolnexus:panel"))["toolnexus:panel"]);
const calls = () => mcp.log.requests.filter((r) => r.body?.method === "tools/call");

/** Stops the extension's service worker (Chrome does so to idle workers) and waits until it has. */
async function stopWorker(page) {
  const cdp = await context.newCDPSession(page);
  const versions = new Map();
  cdp.on("ServiceWorker.workerVersionUpdated", (e) => { for (const v of e.versions) versions.set(v.versionId, v); });
  await cdp.send("ServiceWorker.enable");
  const running = () => [...versions.values()].filter((v) => v.runningStatus === "running" && v.scriptURL.endsWith("/sw.js"));
  for (let i = 0; i < 50 && !running().length; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(running().length, 1, "one worker runs");
  await cdp.send("ServiceWorker.stopWorker", { versionId: running()[0].versionId });
  for (let i = 0; i < 50 && running().length; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(running().length, 0, "the worker stopped");
  await cdp.detach();
}

test("an MCP question is a form in the side panel; the worker is stopped while it waits; the answer finishes the run", async () => {
  const panel = await context.newPage();
  await panel.goto(`chrome-extension://${extId}/panel.html`);
  await send(panel, "#book");
  const card = panel.locator(".card.input");
  await card.waitFor({ timeout: 15_000 });
  await status(panel, "waiting");
  assert.equal(await panel.textContent("#busy-label"), "Waiting for you");

  // Drawn from the schema, each field labelled (its title), described and typed.
  const form = panel.getByRole("form", { name: "docs asks:" });
  assert.equal(await form.count(), 1, "the card is a form named by who asks");
  assert.equal(await card.locator("legend").textContent(), "Book a table");
  const name = panel.getByLabel("Your name");
  assert.deepEqual(await name.evaluate((e) => [e.type, e.required, e.minLength]), ["text", true, 1]);
  assert.equal(await panel.getByText("The table is booked under it").count(), 1);
  assert.equal(await name.getAttribute("aria-describedby"), await panel.getByText("The table is booked under it").getAttribute("id"));
  const guests = panel.getByLabel("Guests");
  assert.deepEqual(await guests.evaluate((e) => [e.type, e.step, e.min, e.max, e.value, e.required]), ["number", "1", "1", "12", "2", true]);
  assert.deepEqual(await panel.getByLabel("Budget per person").evaluate((e) => [e.type, e.step, e.min, e.required]), ["number", "any", "0", false]);
  const veg = panel.getByLabel("Vegetarian menu");
  assert.deepEqual(await veg.evaluate((e) => [e.type, e.checked]), ["checkbox", false]);
  const seating = panel.getByLabel("Seating");
  assert.deepEqual(await seating.evaluate((e) => [...e.options].map((o) => [o.value, o.text])),
    [["", "Choose…"], ["window", "By the window"], ["aisle", "Aisle"], ["bar", "At the bar"]]);
  assert.deepEqual(await panel.getByLabel("Time").evaluate((e) => [...e.options].map((o) => o.value)), ["", "18:00", "20:00"]);
  assert.deepEqual(await card.locator("button").allTextContents(), ["Submit", "Decline", "Cancel"]);
  assert.equal(await panel.evaluate(() => document.activeElement?.id), await name.getAttribute("id"), "the first field has the focus");

  // The run is halted in chrome.storage.local: a stopped worker loses nothing.
  const halted = await stored(panel);
  assert.equal(halted.pending.kind, "input");
  assert.deepEqual(Object.keys(halted.pending.data.inputRequests), ["booking"]);
  assert.equal(calls().length, 1, "the server has asked once");

  // Half filled in, a required field left empty: the browser does not let it go.
  await name.fill("Ada");
  await guests.fill("3");
  await card.locator("button[type=submit]").click();
  assert.equal(await card.count(), 1, "still shown");
  assert.equal(await seating.evaluate((e) => e.validity.valueMissing), true);
  await panel.screenshot({ path: path.join(shots, "extension-mcp-form.png") });

  await stopWorker(panel);
  // The panel reconnects; a new worker reads the halted run and asks again; the form the
  // person is filling in stays as it is.
  await panel.waitForSelector("text=Resuming the run", { timeout: 10_000 });
  await status(panel, "waiting");
  assert.equal(await card.count(), 1, "one form");
  assert.equal(await name.inputValue(), "Ada", "what was typed is kept");
  assert.equal(await guests.inputValue(), "3");
  assert.equal(calls().length, 1, "the new worker did not call the server again to ask");

  await seating.selectOption({ label: "By the window" });
  await veg.check();
  await panel.getByLabel("Budget per person").fill("25.5");
  await panel.getByLabel("Time").selectOption("20:00");
  await card.locator("button[type=submit]").click();
  await status(panel, "done");
  assert.equal(await panel.evaluate(() => document.body.dataset.answer),
    "The MCP server says: docs_book → Booked 3 at the window for Ada (vegetarian, 25.5 € each, 20:00)");
  assert.equal(await card.count(), 0);

  // The server got typed values (its schema check passed) and only the retry came from the new worker.
  const retry = calls().at(-1).body.params;
  assert.deepEqual(retry.inputResponses, { booking: { action: "accept", content: { name: "Ada", guests: 3, budget: 25.5, vegetarian: true, seating: "window", time: "20:00" } } });
  assert.equal(calls().length, 2);
  const after = await stored(panel);
  assert.equal(after.pending, undefined);
  assert.match(JSON.stringify(after.messages), /Booked 3 at the window for Ada/, "the model got the tool's result");
  await panel.screenshot({ path: path.join(shots, "extension-mcp-form-done.png") });
  await panel.close();
});

test("a form submitted just as the worker stops reaches the next worker once", async () => {
  const panel = await context.newPage();
  await panel.goto(`chrome-extension://${extId}/panel.html`);
  await panel.click("#reset");
  await panel.waitForFunction(() => !document.querySelector("#chat .msg"));
  await send(panel, "#book");
  const card = panel.locator(".card.input");
  await card.waitFor({ timeout: 15_000 });
  await panel.getByLabel("Your name").fill("Bo");
  await panel.getByLabel("Seating").selectOption("bar");
  const n = calls().length;
  await stopWorker(panel);
  await card.locator("button[type=submit]").click(); // the panel may not have a worker yet: it sends when it has
  await status(panel, "done");
  assert.equal(await panel.evaluate(() => document.body.dataset.answer), "The MCP server says: docs_book → Booked 2 at the bar for Bo");
  assert.equal(calls().length, n + 1, "answered once");
  assert.equal(await card.count(), 0, "not asked again");
  await panel.close();
});

test("URL mode is a link and Done; Decline and Cancel reach the server", async () => {
  const panel = await context.newPage();
  await panel.goto(`chrome-extension://${extId}/panel.html`);
  await panel.click("#reset");
  await panel.waitForFunction(() => !document.querySelector("#chat .msg"));

  await send(panel, "#link");
  const card = panel.locator(".card.input");
  await card.waitFor({ timeout: 15_000 });
  const a = card.getByRole("link", { name: "Open auth.example.test" });
  assert.deepEqual(await a.evaluate((e) => [e.href, e.target, e.rel]), ["https://auth.example.test/link?x=1", "_blank", "noopener noreferrer"]);
  assert.equal(await card.locator("legend").textContent(), "Link your account");
  assert.deepEqual(await card.locator("button").allTextContents(), ["Done", "Decline", "Cancel"]);
  await panel.screenshot({ path: path.join(shots, "extension-mcp-link.png") });
  await card.getByRole("button", { name: "Done" }).click();
  await status(panel, "done");
  assert.equal(await panel.evaluate(() => document.body.dataset.answer), "The MCP server says: docs_connect → link: accept");
  assert.deepEqual(calls().at(-1).body.params.inputResponses, { link: { action: "accept" } });

  for (const [button, action] of [["Decline", "decline"], ["Cancel", "cancel"]]) {
    await send(panel, "#book");
    await card.waitFor({ timeout: 15_000 });
    await card.getByRole("button", { name: button }).click();
    await status(panel, "done");
    assert.equal(await panel.evaluate(() => document.body.dataset.answer), `The MCP server says: docs_book → no booking: ${action}`);
    assert.deepEqual(calls().at(-1).body.params.inputResponses, { booking: { action } });
  }
  await panel.close();
});

test("a child agent's MCP question: a form naming the agent, answered across a worker stop; the child finishes, then the parent", async () => {
  const panel = await context.newPage();
  await panel.goto(`chrome-extension://${extId}/panel.html`);
  await panel.click("#reset");
  await panel.waitForFunction(() => !document.querySelector("#chat .msg"));
  const n = calls().length;
  const asked = mcp.log.retries.length;
  await send(panel, "#delegate-book"); // the root delegates to `browser`, whose model calls docs_book
  const card = panel.locator(".card.input");
  await card.waitFor({ timeout: 15_000 });
  await status(panel, "waiting");

  // The child's question, drawn from its schema, says which agent it came through.
  assert.equal(await panel.getByRole("form", { name: "docs asks (through the browser agent):" }).count(), 1);
  assert.equal(await card.locator("legend").textContent(), "Book a table");
  const name = panel.getByLabel("Your name");
  assert.deepEqual(await name.evaluate((e) => [e.type, e.required]), ["text", true]);

  // Halted in chrome.storage.local: the child's own request at the root, with its path; the
  // child's transcript kept under the delegate call, which has no result yet.
  const halted = await stored(panel);
  assert.equal(halted.pending.kind, "input");
  assert.equal(halted.pending.data.server, "docs");
  assert.deepEqual(Object.keys(halted.pending.data.inputRequests), ["booking"]);
  assert.equal(halted.pending.path.length, 1);
  const [{ agent, callId }] = halted.pending.path;
  assert.equal(agent, "browser");
  const delegated = halted.messages.flatMap((m) => m.tool_calls ?? []).filter((c) => c.function.name === "browser");
  assert.deepEqual(delegated.map((c) => c.id), [callId], "the path names the root's one delegate call");
  assert.deepEqual(halted.children.map((c) => [c.agent, c.callId, c.state.pending?.id]), [["browser", callId, halted.pending.id]]);
  assert.deepEqual(halted.children[0].state.pending.path ?? [], [], "inside the child the request is its own");
  assert.doesNotMatch(JSON.stringify(halted.messages), /Booked/);
  assert.equal(calls().length, n + 1, "the server has asked once");
  assert.equal(calls().at(-1).body.params.name, "book");
  assert.equal(calls().at(-1).body.params.inputResponses, undefined);

  await name.fill("Ada");
  await panel.screenshot({ path: path.join(shots, "extension-mcp-child-form.png") });
  await stopWorker(panel);
  // A new worker reads the halted tree and asks again; the form keeps what was typed; the
  // server is not called again to ask.
  await panel.waitForSelector("text=Resuming the run", { timeout: 10_000 });
  await status(panel, "waiting");
  assert.equal(await card.count(), 1, "one form");
  assert.equal(await name.inputValue(), "Ada");
  assert.equal(calls().length, n + 1);

  await panel.getByLabel("Guests").fill("3");
  await panel.getByLabel("Seating").selectOption({ label: "By the window" });
  await card.locator("button[type=submit]").click();
  await status(panel, "done");
  const final = "The browser agent reports: The MCP server says: docs_book → Booked 3 at the window for Ada";
  assert.equal(await panel.evaluate(() => document.body.dataset.answer), final);
  // The child's report and the parent's answer are bubbles of their own, the child's named.
  assert.deepEqual(await panel.locator(".msg.assistant").evaluateAll((els) => els.map((e) => [e.dataset.agent ?? null, e.textContent])),
    [["browser", "The MCP server says: docs_book → Booked 3 at the window for Ada"], [null, final]]);
  assert.equal(await card.count(), 0);

  // One ask and one answered retry: the tool booked once, with the typed values.
  assert.equal(calls().length, n + 2);
  assert.deepEqual(calls().at(-1).body.params.inputResponses,
    { booking: { action: "accept", content: { name: "Ada", guests: 3, vegetarian: false, seating: "window" } } });
  const books = mcp.log.retries.slice(asked).filter((r) => r.tool === "book");
  assert.deepEqual(books.map((r) => r.inputResponses?.booking?.action ?? null), [null, "accept"]);

  // Finished: nothing pending, no halted child; the child's result reached the parent's model.
  const done = await stored(panel);
  assert.equal(done.pending, undefined);
  assert.deepEqual(done.children ?? [], []);
  const results = done.messages.filter((m) => m.role === "tool").map((m) => m.content);
  assert.deepEqual(results, ["The MCP server says: docs_book → Booked 3 at the window for Ada"]);
  await panel.screenshot({ path: path.join(shots, "extension-mcp-child-done.png") });
  await panel.close();
});
