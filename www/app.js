// The demo page: the package's browser entry plus the scripted model as an in-page fetch.
// ?auto=1 approves every relay call and runs both flows by itself (used by the headless test).
import { init, createClient, createToolkit, defineTool, relayTool, relayCallsOf, relayAnswer } from "../pkg/index.js";
import { scriptedFetch } from "../demo/scripted-logic.mjs";

const $ = (id) => document.getElementById(id);
const auto = new URLSearchParams(location.search).has("auto");
const log = (line) => { $("log").textContent += `${line}\n`; };
const style = () => document.querySelector("input[name=style]:checked").value;
const prices = { "blue mug": "$12.50" };

const toolkit = () => createToolkit({ tools: [
  defineTool({ name: "lookup_price", description: "Price of an item", inputSchema: { type: "object", properties: { item: { type: "string" } } },
               run: async ({ item }) => prices[item] ?? "unknown" }),
  relayTool("click", "Click an element in the user's tab", { type: "object", properties: { selector: { type: "string" } } }),
] });
const client = (extra = {}) => createClient({ baseUrl: "https://scripted.invalid/v1", style: style(), model: `scripted-${style()}`,
  apiKey: "in-page", fetch: scriptedFetch(), onMetric: (m) => m.event === "tool" && log(`  metric: tool ${m.tool}${m.pending ? " (pending)" : ""}`), ...extra });

/** Shows a relay request and resolves when the person (or auto mode) decides. */
function askPerson(request) {
  const calls = relayCallsOf(request);
  return new Promise((resolve) => {
    const card = document.createElement("div");
    card.className = "relay";
    card.textContent = `The model wants to run ${calls.map((c) => `${c.name}(${c.arguments})`).join(", ")} in your tab. `;
    const decide = (ok) => {
      card.remove();
      log(`  you ${ok ? "approved" : "declined"} ${calls.map((c) => c.name).join(", ")}`);
      resolve(ok ? relayAnswer(request.id, calls.map((c) => ({ id: c.id, output: `clicked ${c.input.selector}` })))
                 : { id: request.id, ok: false, reason: "declined" });
    };
    for (const [label, ok] of [["Approve", true], ["Decline", false]]) {
      const b = document.createElement("button");
      b.textContent = label;
      b.onclick = () => decide(ok);
      card.append(b, " ");
    }
    $("relays").append(card);
    if (auto) setTimeout(() => decide(true), 10);
  });
}

let halted = null;
async function live() {
  log(`▶ ${style()}: run with waitFor`);
  const r = await client({ waitFor: askPerson }).run("Find the price of the blue mug and add it to the cart", { toolkit: toolkit() });
  log(`■ status=${r.status} turns=${r.turns}\n  ${r.text}`);
  return r;
}
async function halt() {
  log(`▶ ${style()}: run without waitFor`);
  halted = JSON.stringify(await client().run("Find the price of the blue mug and add it to the cart", { toolkit: toolkit() }));
  $("state").hidden = false;
  $("state").textContent = JSON.stringify(JSON.parse(halted), null, 2);
  $("resume").disabled = false;
  log(`■ status=pending; the state above is plain JSON (${halted.length} bytes) — store it anywhere`);
}
async function resume() {
  const state = JSON.parse(halted);
  const answer = await askPerson(state.pending);
  const r = await client().runWithAnswer({ toolkit: toolkit(), state, answer });
  $("resume").disabled = true;
  log(`■ resumed: status=${r.status}\n  ${r.text}`);
  return r;
}
const guard = (f) => () => f().catch((e) => log(`✗ ${e.code ?? ""} ${e.message}`));
$("live").onclick = guard(live);
$("halt").onclick = guard(halt);
$("resume").onclick = guard(resume);

await init();
log("wasm loaded");
if (auto) {
  const results = [];
  for (const s of ["openai", "anthropic"]) {
    document.querySelector(`input[value=${s}]`).checked = true;
    const a = await live();
    await halt();
    const b = await resume();
    results.push(`${s}:${a.status}:${b.status}:${b.text}`);
  }
  document.body.dataset.result = results.join("|");
}
