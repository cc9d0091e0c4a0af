// The package's surface against its one source of truth: the options table in the core
// (src/options.rs options_table!) against the typings' ClientOptions, the typings' value exports
// against what each entry exports at run time, and the friendly failures (calls before init()
// in the browser entry, unknown options, the error class).
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as node from "toolnexus-wasm";

const root = new URL("../../", import.meta.url);
const pkg = new URL("node_modules/toolnexus-wasm/", import.meta.url);
const ts = createRequire(new URL("tools/js/", root))("typescript");

function parse(file) {
  return ts.createSourceFile(file, readFileSync(new URL(file, pkg), "utf8"), ts.ScriptTarget.Latest, true);
}

test("ClientOptions in the typings has exactly the options of the core's table", () => {
  const src = readFileSync(new URL("src/options.rs", root), "utf8");
  const table = src.slice(src.indexOf("options_table! {\n"), src.indexOf("\n}\n", src.indexOf("options_table! {\n")));
  const options = [...table.matchAll(/^ +"(\w+)"/gm)].map((m) => m[1]).sort();
  assert.ok(options.length >= 18, "the table was read");
  let typed;
  parse("toolnexus_wasm.d.ts").forEachChild((n) => {
    if (ts.isInterfaceDeclaration(n) && n.name.text === "ClientOptions") typed = n.members.map((m) => m.name.text).sort();
  });
  assert.deepEqual(typed, options);
  // And every option is documented in the package README.
  const readme = readFileSync(new URL("pkg-template/README.md", root), "utf8");
  for (const o of options) assert.match(readme, new RegExp(`\\b${o}\\b`), `${o} is not in pkg-template/README.md`);
});

function typedValues() {
  const names = [];
  parse("index.d.ts").forEachChild((n) => {
    const exported = n.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (exported && (ts.isFunctionDeclaration(n) || ts.isClassDeclaration(n))) names.push(n.name.text);
    if (exported && ts.isVariableStatement(n)) for (const d of n.declarationList.declarations) names.push(d.name.text);
    if (ts.isExportDeclaration(n) && !n.isTypeOnly) for (const e of n.exportClause.elements) names.push(e.name.text);
  });
  return [...new Set(names)].sort();
}

test("every typed value export exists in the node and browser entries, and the browser entry exports nothing untyped", async () => {
  const typed = typedValues();
  assert.ok(typed.includes("defineTool") && typed.includes("ToolnexusError") && typed.includes("Toolkit"));
  const browser = await import(new URL("index.js", pkg));
  for (const name of typed) {
    assert.ok(name in node, `node entry lacks ${name}`);
    assert.ok(name in browser, `browser entry lacks ${name}`);
  }
  // wasm-bindgen's Client and EventStream classes are reached through createClient only.
  const internal = new Set(["Client", "EventStream", "toolkitId", "dropToolkit"]);
  assert.deepEqual(Object.keys(browser).filter((k) => !typed.includes(k) && !internal.has(k)), []);
});

test("unknown options and other libraries' spellings are bad_input with a hint", () => {
  const base = { baseUrl: "http://x", style: "openai", model: "m" };
  const refused = (extra) => {
    try {
      node.createClient({ ...base, ...extra });
    } catch (e) {
      assert.ok(e instanceof node.ToolnexusError && e instanceof Error && node.ToolnexusError.is(e));
      assert.equal(e.code, "bad_input");
      return e.message;
    }
    assert.fail("accepted");
  };
  assert.match(refused({ baseURL: "http://x" }), /unknown option "baseURL"; did you mean baseUrl\?/);
  assert.match(refused({ maxRetries: 3 }), /did you mean retries\?/);
  assert.match(refused({ tools: [] }), /did you mean run\(prompt, \{ toolkit \}\)/);
  assert.match(refused({ temperature: 0 }), /did you mean requestParams/);
  // A function-valued option is seen too (it crosses as `true`).
  assert.match(refused({ onFinsh: () => {} }), /unknown option "onFinsh"/);
  assert.match(refused({ colour: 1 }), /unknown option "colour" \(see ClientOptions\)/);
});

test("errors are ToolnexusError instances: from the wasm, from the JS stores, and the guard", async () => {
  const e = new node.ToolnexusError("m", "conflict", { status: 409, cause: "c" });
  assert.equal(e.name, "ToolnexusError");
  assert.deepEqual([e.code, e.status, e.cause, e.message], ["conflict", 409, "c", "m"]);
  assert.ok(node.ToolnexusError.is(Object.assign(new Error("x"), { name: "ToolnexusError", code: "store" })));
  assert.ok(!node.ToolnexusError.is(new Error("x")) && !node.ToolnexusError.is(null));
  assert.throws(() => node.relayAnswer("id", "not results"), node.ToolnexusError);
  assert.throws(() => node.kvStore({}), (err) => err instanceof node.ToolnexusError && err.code === "bad_input");
  const store = node.memoryStore();
  await store.save("a", { schemaVersion: 1, style: "openai", messages: [], revision: 1 });
  await assert.rejects(store.save("a", { schemaVersion: 1, style: "openai", messages: [], revision: 1 }), (err) => err instanceof node.ToolnexusError && err.code === "conflict");
  const fetch = async () => ({ status: 401, text: async () => "no" });
  const c = node.createClient({ baseUrl: "http://x", style: "openai", model: "m", fetch, retries: 0 });
  await assert.rejects(c.run("hi"), (err) => err instanceof node.ToolnexusError && err.code === "provider_http" && err.status === 401);
});
