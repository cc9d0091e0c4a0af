// The mixed runs of the soak (bench/soak.mjs, tests/js/soak.test.mjs), over one client of the
// package given: tools, durable halts and their resumes, streams broken early, aborts in flight,
// parked waits aborted, deadlines, and runs under a long-lived signal that never aborts (the
// shape of a server's shutdown signal: every run adds a listener to it and must remove it).
// `sample(wasm)` reads what a leak would grow: live externrefs (wasm-bindgen's table of JS
// values held by the wasm), its size, the wasm memory and the JS heap after a full GC.
import v8 from "node:v8";
import vm from "node:vm";

v8.setFlagsFromString("--expose-gc");
export const gc = globalThis.gc ?? vm.runInNewContext("gc");

const text = (t) => JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: t } }], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } });
const calls = (...c) =>
  JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: c.map(([id, name, args]) => ({ id, type: "function", function: { name, arguments: args } })) } }] });
const sse = (...deltas) => deltas.map((d) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: d } }] })}\n\n`).join("") + "data: [DONE]\n\n";

export function makeRuns(pkg) {
  const { createClient, createToolkit, defineTool, relayTool, relayAnswer, relayCallsOf, memoryStore } = pkg;
  // The model: the prompt says what to answer. "tools" → two parallel tool calls, then text;
  // "relay" → a relay call, then text; "hang" → a fetch that settles only on abort (or never,
  // when it ignores the signal: "deaf"); "stream" → an SSE reply.
  const fetch = async (url, init) => {
    const body = JSON.parse(init.body);
    const msgs = body.messages;
    const prompt = msgs.findLast((m) => m.role === "user")?.content ?? "";
    const answered = msgs.at(-1).role === "tool";
    if (prompt.startsWith("hang")) {
      return new Promise((_, reject) => init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))));
    }
    if (prompt.startsWith("deaf")) return new Promise(() => {});
    if (body.stream) return new Response(sse("a", "b", "c", "d"), { headers: { "content-type": "text/event-stream" } });
    if (answered) return new Response(text("done"));
    if (prompt.startsWith("tools")) return new Response(calls(["a", "weather", '{"city":"Paris"}'], ["b", "time", "{}"]));
    if (prompt.startsWith("relay") || prompt.startsWith("park")) return new Response(calls(["r", "click", '{"sel":"#x"}']));
    return new Response(text("plain"));
  };
  const toolkit = createToolkit({ tools: [
    defineTool({ name: "weather", description: "w", run: async ({ city }) => `sunny in ${city}` }),
    defineTool({ name: "time", description: "t", run: async (args, ctx) => (ctx.signal ? "14:00" : "14:00") }),
    relayTool("click", "click", { type: "object", properties: { sel: { type: "string" } } }),
  ] });
  const store = memoryStore();
  const base = { baseUrl: "http://m/v1", style: "openai", model: "m", apiKey: "k", fetch, retries: 0 };
  const client = createClient({ ...base, store });
  const parked = createClient({ ...base, store, waitFor: () => new Promise(() => {}) });
  const deadline = createClient({ ...base, timeoutMs: 1 });
  const forever = new AbortController(); // never aborts, shared by every run that takes it

  const kinds = [
    async () => (await client.run("tools", { toolkit })).text === "done",
    async () => (await client.run("tools", { toolkit, signal: forever.signal })).text === "done",
    async () => {
      const halted = await client.run("relay", { toolkit, signal: forever.signal });
      const answer = relayAnswer(halted.pending.id, relayCallsOf(halted.pending).map((c) => ({ id: c.id, output: "ok" })));
      return (await client.runWithAnswer({ toolkit, state: halted, answer, signal: forever.signal })).text === "done";
    },
    async (i) => {
      // ask with the store, halted, then resumed from the store
      const id = `c${i % 50}`;
      await client.discard(id).catch(() => {});
      const halted = await client.ask("relay", { toolkit, id });
      const answer = relayAnswer(halted.pending.id, [{ id: "r", output: "ok" }]);
      return (await client.askWithAnswer({ toolkit, id, answer })).text === "done";
    },
    async () => {
      for await (const e of client.stream("stream", { toolkit, signal: forever.signal })) if (e.type === "text") break;
      return true;
    },
    async () => {
      const ctl = new AbortController();
      setTimeout(() => ctl.abort(), 0);
      return (await client.run("hang", { toolkit, signal: ctl.signal }).catch((e) => e)).code === "aborted";
    },
    async () => {
      const ctl = new AbortController();
      setTimeout(() => ctl.abort(), 0);
      return (await client.run("deaf", { toolkit, signal: ctl.signal }).catch((e) => e)).code === "aborted";
    },
    async (i) => {
      const ctl = new AbortController();
      setTimeout(() => ctl.abort(), 1);
      const id = `p${i % 50}`;
      await parked.discard(id);
      return (await parked.ask("park", { toolkit, id, signal: ctl.signal }).catch((e) => e)).code === "aborted";
    },
    async () => (await deadline.run("hang", { toolkit }).catch((e) => e)).code === "aborted",
  ];
  return async function run(i) {
    if (!(await kinds[i % kinds.length](i))) throw new Error(`soak run ${i} (kind ${i % kinds.length}) did not do its work`);
  };
}

/** What a leak would grow, after a full GC. */
export async function sample(wasm) {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setImmediate(r));
    gc();
  }
  const table = wasm.__wbindgen_externrefs;
  let live = 0;
  for (let i = 0; i < table.length; i++) if (table.get(i) !== undefined) live++;
  return { externrefs: live, table: table.length, wasmBytes: wasm.memory.buffer.byteLength, heapUsed: process.memoryUsage().heapUsed };
}
