// The fetch-safe builtins: webfetch against a local page (HTML stripped or kept, the body read
// capped, a failing status), question as a suspension answered in process and across a durable
// halt, todowrite, and the names that need a filesystem refused. The relay collision guard of the
// loop's entry still covers every builtin name.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { createClient, createToolkit, relayTool } from "toolnexus-wasm";
import { builtinTools } from "toolnexus-wasm/mcp";
import { scriptedFetch } from "../../demo/scripted-logic.mjs";

let server, base;
before(async () => {
  server = http.createServer((req, res) => {
    if (req.url === "/big") {
      res.writeHead(200, { "content-type": "text/plain" });
      const chunk = "x".repeat(16 * 1024);
      let n = 0;
      const pump = () => { while (n < 64) { n++; if (!res.write(chunk)) return res.once("drain", pump); } res.end(); };
      return pump();
    }
    if (req.url === "/gone") return res.writeHead(410).end("gone");
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<html><head><style>h1{}</style><script>alert(1)</script></head><body><h1>Mugs</h1>  \n\n\n\n<p>Blue, <b>12</b> left</p></body></html>");
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => new Promise((r) => { server.closeAllConnections(); server.close(r); }));

const byName = (tools, name) => tools.find((t) => t.name === name);

test("webfetch: a page as text or html, a capped body, a failing status", async () => {
  const tools = builtinTools(["webfetch"], { maxBytes: 40000, allowPrivate: true });
  assert.deepEqual(tools.map((t) => [t.name, t.source]), [["webfetch", "builtin"]]);
  const wf = tools[0];
  assert.deepEqual(await wf.run({ url: `${base}/` }, {}), { output: "Mugs\n\nBlue, 12 left", isError: false, metadata: { status: 200, format: "markdown" } });
  assert.match((await wf.run({ url: `${base}/`, format: "html" }, {})).output, /^<html><head><style>/);
  const big = await wf.run({ url: `${base}/big`, format: "text" }, {});
  assert.equal(big.output.length, 40000);
  assert.deepEqual(big.metadata, { status: 200, format: "text", truncated: true });
  assert.deepEqual(await wf.run({ url: `${base}/gone` }, {}), { output: "HTTP 410", isError: true, metadata: { status: 410 } });
  assert.deepEqual(await wf.run({}, {}), { output: "webfetch: url is required", isError: true });
});

test("question suspends; the host's answer is the result, in process and after a durable halt", async () => {
  const tools = builtinTools(["question", "todowrite"]);
  const scenarios = { ask: [{ calls: [["question", { questions: [{ question: "Which size?", options: ["S", "M"] }] }], ["todowrite", { todos: [{ id: "1", text: "Buy a mug", completed: false }] }]] }, { text: "Noted: {{results}}" }] };
  const opts = { baseUrl: "http://model.test/v1", style: "openai", model: "scripted", apiKey: "k", fetch: scriptedFetch(scenarios) };
  const asked = [];
  const live = await createClient({ ...opts, waitFor: async (r) => { asked.push(r); return { id: r.id, ok: true, data: { answers: ["M"] } }; } }).run("#ask", { toolkit: createToolkit({ tools }) });
  assert.equal(asked[0].kind, "question");
  assert.equal(asked[0].prompt, "Which size? (options: S, M)");
  assert.deepEqual(asked[0].data, { questions: [{ question: "Which size?", options: ["S", "M"] }] });
  assert.equal(live.text, 'Noted: question → {"answers":["M"]}; todowrite → [ ] Buy a mug');
  const halted = await createClient(opts).run("#ask", { toolkit: createToolkit({ tools }) });
  assert.equal(halted.status, "pending");
  assert.equal(halted.pending.kind, "question");
  const state = JSON.parse(JSON.stringify(halted));
  const done = await createClient(opts).runWithAnswer({ toolkit: createToolkit({ tools: builtinTools(["question", "todowrite"]) }), state, answer: { id: state.pending.id, ok: true, data: { answers: ["S"] } } });
  assert.equal(done.text, 'Noted: question → {"answers":["S"]}; todowrite → [ ] Buy a mug');
});

test("only the fetch-safe builtins exist; relay tools still may not take any builtin name", () => {
  assert.deepEqual(builtinTools().map((t) => t.name), ["webfetch", "question", "todowrite"]);
  assert.throws(() => builtinTools(["bash"]), { code: "bad_input", message: 'builtinTools: "bash" is not available over fetch (available: webfetch, question, todowrite)' });
  for (const name of ["bash", "read", "write", "edit", "grep", "glob", "webfetch", "question", "apply_patch", "todowrite"]) {
    assert.throws(() => createToolkit({ tools: [relayTool(name, "x")] }), { code: "relay_collision" }, name);
  }
  const kit = createToolkit({ tools: builtinTools() });
  assert.equal(kit.tools.length, 3);
});
