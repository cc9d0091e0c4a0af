// The MCP entry's surface against its typings (pkg-template/mcp/index.d.ts): each of its four
// entry files (index.js for browsers and bundlers, node.js, workerd.js, node.cjs) exports exactly
// the values the typings declare. The entries take their exports from one table, the value
// exports of api.js and oauth.js (`export *`), so a source added there reaches every entry; this
// fails when an entry or the typings are left behind.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const root = new URL("../../", import.meta.url);
const pkg = new URL("node_modules/toolnexus-wasm/mcp/", import.meta.url);
const ts = createRequire(new URL("tools/js/", root))("typescript");

const parse = (file) => ts.createSourceFile(file, readFileSync(new URL(file, pkg), "utf8"), ts.ScriptTarget.Latest, true);
const exported = (n) => n.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The value names a module exports, read from its text: its own declarations, `export { … }`
 * lists and, followed into the package's files, `export * from`. Type-only exports are left out. */
function valuesOf(file) {
  const names = new Set();
  parse(file).forEachChild((n) => {
    if (exported(n) && (ts.isFunctionDeclaration(n) || ts.isClassDeclaration(n)) && n.name) names.add(n.name.text);
    if (exported(n) && ts.isVariableStatement(n)) {
      for (const d of n.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) names.add(d.name.text);
        else for (const e of d.name.elements) names.add(e.name.text);
      }
    }
    if (ts.isExportDeclaration(n) && !n.isTypeOnly) {
      if (n.exportClause) {
        for (const e of n.exportClause.elements) if (!e.isTypeOnly) names.add(e.name.text);
      } else {
        // `export *` never re-exports `default`; a file outside mcp/ (the typings' ../index.js)
        // is only ToolnexusError's home, named in the clause form above.
        const from = new URL(n.moduleSpecifier.text, new URL(file, pkg));
        for (const name of valuesOf(from.href.slice(pkg.href.length))) if (name !== "default") names.add(name);
      }
    }
  });
  return names;
}

const sorted = (names) => [...names].sort();
const typed = sorted(valuesOf("index.d.ts"));

test("the typings were read: every source, the OAuth helpers, init and the error class", () => {
  for (const name of ["mcpTools", "httpTool", "builtinTools", "skillTool", "a2aTools", "authorizationGrant", "exchangeCode", "init", "initSync", "ToolnexusError"]) {
    assert.ok(typed.includes(name), `index.d.ts does not declare ${name}`);
  }
});

test("each entry file exports exactly what the typings declare", () => {
  for (const entry of ["index.js", "node.js", "workerd.js"]) assert.deepEqual(sorted(valuesOf(entry)), typed, entry);
});

test("at run time too: the browser entry, the Node entry and require()", async () => {
  const browser = await import(new URL("index.js", pkg));
  const node = await import("toolnexus-wasm/mcp");
  const required = createRequire(import.meta.url)("toolnexus-wasm/mcp");
  for (const [name, m] of [["index.js", browser], ["node.js", node], ["node.cjs", required]]) {
    assert.deepEqual(Object.keys(m).filter((k) => k !== "default" && k !== "module.exports").sort(), typed, name);
    for (const k of typed) assert.notEqual(m[k], undefined, `${name}: ${k} is undefined`);
  }
});
