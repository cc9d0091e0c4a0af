// Standard Schema tools: zod 4, valibot (through @valibot/to-json-schema) and arktype, from npm.
// The model is offered the schema's JSON Schema; its arguments are validated before `run`, and
// an invalid call comes back to the model as an error result it can correct.
import test from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import * as v from "valibot";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import { createClient, createToolkit, defineTool, ToolnexusError } from "../../pkg/node.js";

const schemas = {
  zod: z.object({ a: z.number(), b: z.number() }),
  valibot: toStandardJsonSchema(v.object({ a: v.number(), b: v.number() })),
  arktype: type({ a: "number", b: "number" }),
};

// A scripted OpenAI model: first it calls `add` with the arguments given, then it calls it
// correctly if the first call came back as an error, then it answers with what it saw.
function model(firstArgs) {
  const seen = [];
  const fetch = async (url, init) => {
    const body = JSON.parse(init.body);
    seen.push(body);
    const results = body.messages.filter((m) => m.role === "tool");
    const call = (args, id) => ({ choices: [{ message: { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "add", arguments: JSON.stringify(args) } }] }, finish_reason: "tool_calls" }] });
    let reply;
    if (results.length === 0) reply = call(firstArgs, "c1");
    else if (results.length === 1 && /invalid arguments/.test(results[0].content)) reply = call({ a: 2, b: 3 }, "c2");
    else reply = { choices: [{ message: { role: "assistant", content: results.map((r) => r.content).join(" | ") }, finish_reason: "stop" }] };
    return new Response(JSON.stringify({ ...reply, usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }), { status: 200 });
  };
  return { fetch, seen };
}

for (const [lib, schema] of Object.entries(schemas)) {
  test(`${lib}: the model gets the JSON Schema; valid arguments reach run, parsed`, async () => {
    const runs = [];
    const add = defineTool({ name: "add", description: "Adds", inputSchema: schema, run: async (args) => { runs.push(args); return String(args.a + args.b); } });
    assert.equal(add.inputSchema.type, "object");
    assert.deepEqual(add.inputSchema.properties, { a: { type: "number" }, b: { type: "number" } });
    assert.deepEqual([...add.inputSchema.required].sort(), ["a", "b"]);
    const { fetch, seen } = model({ a: 1, b: 2 });
    const client = createClient({ baseUrl: "http://m/v1", style: "openai", model: "m", fetch });
    const r = await client.run("add", { toolkit: createToolkit({ tools: [add] }) });
    assert.equal(r.text, "3");
    assert.deepEqual(runs, [{ a: 1, b: 2 }]);
    assert.deepEqual(seen[0].tools[0].function.parameters.properties.a, { type: "number" });
  });

  test(`${lib}: invalid arguments never reach run; the model reads the issues and corrects its call`, async () => {
    const runs = [];
    const add = defineTool({ name: "add", description: "Adds", inputSchema: schema, run: async (args) => { runs.push(args); return String(args.a + args.b); } });
    const { fetch } = model({ a: "two", b: 2 });
    const client = createClient({ baseUrl: "http://m/v1", style: "openai", model: "m", fetch });
    const r = await client.run("add", { toolkit: createToolkit({ tools: [add] }) });
    assert.deepEqual(runs, [{ a: 2, b: 3 }]);
    assert.equal(r.toolCalls[0].isError, true);
    assert.match(r.toolCalls[0].output, /invalid arguments: a: /);
    assert.equal(r.text.split(" | ")[1], "5");
  });
}

test("a Standard Schema without a JSON Schema converter is bad_input saying how to pass one; jsonSchema beside it works", async () => {
  const plain = v.object({ a: v.number() });
  assert.throws(() => defineTool({ name: "t", description: "d", inputSchema: plain, run: () => "" }),
    (e) => e instanceof ToolnexusError && e.code === "bad_input" && /jsonSchema/.test(e.message) && /toStandardJsonSchema/.test(e.message));
  const given = { type: "object", properties: { a: { type: "number" } } };
  const t = defineTool({ name: "t", description: "d", inputSchema: plain, jsonSchema: given, run: ({ a }) => String(a) });
  assert.deepEqual(t.inputSchema, given);
  // A plain tool object given to createToolkit is converted too.
  const kit = createToolkit({ tools: [{ name: "u", description: "d", inputSchema: schemas.zod, run: () => "" }] });
  assert.equal(kit.tools[0].inputSchema.type, "object");
  assert.equal(kit.tools[0].inputSchema["~standard"], undefined);
});
