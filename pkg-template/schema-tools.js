// @ts-check
// Tool schemas: `jsonSchema<T>()` for a JSON Schema, and tools whose `inputSchema` is a Standard
// Schema (zod, valibot, arktype), read into the JSON Schema the model is offered and the
// validation `run` is behind.

// scripts/build.sh points this import at the edge's snippet (its path holds a hash).
import { ToolnexusError, gate } from "./host.js";

/** `jsonSchema<T>(schema)`: the schema itself, typed so that a tool's `run` gets `T` arguments. */
export function jsonSchema(schema) {
  return schema;
}

// A tool whose `inputSchema` is a Standard Schema (an object with `~standard`): the model is
// offered its JSON Schema, and `run` gets the schema's validated output. Arguments that do not
// validate never reach `run`: the call ends as an error result listing the issues, which the
// model reads and can correct, as the AI SDK does. A JSON Schema tool is passed as it is (not
// validated: see docs/decisions/typings.md). Either passes through the approval gate.
export function schemaTool(tool) {
  tool = gate(tool);
  let std;
  try {
    std = tool?.inputSchema?.["~standard"];
  } catch {} // a hostile tool object: the wasm's reader refuses it with bad_input
  if (std === null || typeof std !== "object") return tool;
  const name = tool.name;
  const run = tool.run;
  return {
    ...tool,
    inputSchema: tool.jsonSchema ?? toJsonSchema(std, name),
    jsonSchema: undefined,
    run: typeof run !== "function" ? run : async (args, ctx) => {
      const r = await std.validate(args);
      if (r.issues) throw new Error(`invalid arguments: ${r.issues.map(issue).join("; ")}`);
      return run(r.value, ctx);
    },
  };
}

function issue(i) {
  return [...(i.path ?? []).map((p) => p.key ?? p), i.message].join(": ");
}

// The Standard JSON Schema converter (`~standard.jsonSchema`: zod 4, arktype, valibot through
// @valibot/to-json-schema's toStandardJsonSchema); draft-07 is what every provider reads.
function toJsonSchema(std, name) {
  const conv = std.jsonSchema?.input;
  if (typeof conv !== "function") {
    throw new ToolnexusError(`tool ${name}: the schema has no ~standard.jsonSchema: pass jsonSchema: {...} beside it (valibot: toStandardJsonSchema)`, "bad_input");
  }
  // As plain data: zod's result also carries a `~standard` of its own.
  return JSON.parse(JSON.stringify(conv.call(std.jsonSchema, { target: "draft-07" })));
}
