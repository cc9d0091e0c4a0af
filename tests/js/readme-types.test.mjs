// Every ```js / ```mjs / ```ts block of README.md and pkg-template/README.md, and every @example of
// the package's typings, type-checked as a user would paste it, against the built package
// (tests/js/node_modules/toolnexus-wasm → pkg): `strict`, a .js block with `checkJs` as it is
// and again pasted into a .ts file (the newcomer's step: the Node quick start in `app.ts`).
//
// Each block is compiled alone, as its own ES module, in the host its text names:
//   Worker     `cloudflare:workers`, `env.` or `export default {`: @cloudflare/workers-types
//              (tests/bundlers), no DOM
//   extension  `chrome.`: the DOM and the few `chrome.*` calls the READMEs make (CHROME below;
//              no @types/chrome in the repository)
//   Node       `process.`: @types/node where tools/js or tests/bundlers has it, else the DOM
//              (Node 20 has fetch, Response, AbortSignal, console) and `process.env`
//   page       anything else: the DOM
// A block that is deliberately a fragment carries `<!-- typecheck: fragment -->` on a comment
// line just above its fence (above a `quickstart:` marker, which must touch the fence): it is
// compiled with the few names FRAGMENT declares (an `options` object, a `client`, ...), so a
// fragment may use them without defining them. Keep both lists short: a name belongs there only
// when the README says the reader has it ("`apiKey` and `results` are yours").
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const pkg = fs.realpathSync(path.join(root, "tests/js/node_modules/toolnexus-wasm"));
const ts = createRequire(path.join(root, "tools/js/package.json"))("typescript");

// Blocks that fail only because of their text, each with the only error codes it may give.
// Empty: every README block is a complete program (issue 30). Keep it so.
const KNOWN_TEXT_FAILURES = new Map();

// The names a `typecheck: fragment` block may use without defining them.
const FRAGMENT = `
import type { Answer, Client, ClientOptions, RelayResult, RunResult, Toolkit } from "toolnexus-wasm";
declare global {
  /** createClient's options, spread into a fragment's createClient call. */
  const options: ClientOptions;
  const client: Client;
  const toolkit: Toolkit;
  const apiKey: string;
  /** A halted result, the results of its relay calls and an answer. */
  const halted: RunResult;
  const results: RelayResult[];
  const answer: Answer;
  /** The page's own output. */
  function render(text: string): void;
}
export {};
`;

// What the READMEs call of the extension API (a stand-in for @types/chrome, which is not installed).
const CHROME = `
declare namespace chrome {
  namespace storage {
    interface StorageArea {
      get(keys?: string | string[] | { [key: string]: unknown } | null): Promise<{ [key: string]: any }>;
      set(items: { [key: string]: unknown }): Promise<void>;
      remove(keys: string | string[]): Promise<void>;
    }
    const local: StorageArea;
    const session: StorageArea;
  }
  namespace identity {
    function getRedirectURL(path?: string): string;
    function launchWebAuthFlow(details: { url: string; interactive?: boolean }): Promise<string | undefined>;
  }
  namespace runtime {
    function getURL(path: string): string;
    interface Port {
      name: string;
      postMessage(message: unknown): void;
      onMessage: { addListener(f: (message: any, port: Port) => void): void; removeListener(f: (message: any, port: Port) => void): void };
      onDisconnect: { addListener(f: (port: Port) => void): void };
    }
    function connect(info?: { name?: string }): Port;
    const onConnect: { addListener(f: (port: Port) => void): void };
  }
  namespace tabs {
    interface Tab { id?: number; title?: string; url?: string }
    function query(q: { active?: boolean; currentWindow?: boolean; lastFocusedWindow?: boolean }): Promise<Tab[]>;
  }
  namespace sidePanel {
    function setPanelBehavior(b: { openPanelOnActionClick?: boolean }): Promise<void>;
    function getPanelBehavior(): Promise<{ openPanelOnActionClick?: boolean }>;
  }
}
`;

const NODE = `
declare var process: { env: { [name: string]: string | undefined }; argv: string[]; exit(code?: number): never };
`;

function findTypes(name) {
  for (const dir of ["tools/js", "tests/bundlers"]) {
    const p = path.join(root, dir, "node_modules", name);
    if (fs.existsSync(path.join(p, "package.json"))) return p;
  }
  return undefined;
}

const nodeTypes = findTypes("@types/node");
// The schema libraries the READMEs import, from tests/bundlers (installed there for its tests).
const LIBRARIES = ["zod", "valibot", "@valibot/to-json-schema", "arktype", "vite"];
const workersTypes = findTypes("@cloudflare/workers-types");

/** The host a block's text names (see the head of this file). */
export function hostOf(code) {
  code = code.replace(/(^|\s)\/\/.*$/gmu, "");   // a comment's `kvStore(env.KV)` names no host
  if (/cloudflare:workers|(?<![.\w])env\.|^export default \{/mu.test(code)) return "worker";
  if (/\bchrome\./u.test(code)) return "extension";
  if (/\bprocess\./u.test(code)) return "node";
  return "page";
}

/**
 * The fenced js / mjs / ts blocks of a README: { key, lang, code, fragment, line }. `key` names
 * the block by its quickstart marker, else by its section heading and its place in it.
 */
export function codeBlocks(file, text = fs.readFileSync(path.join(root, file), "utf8")) {
  const lines = text.split("\n");
  const blocks = [];
  let heading = "(top)", nth = 0;
  for (let i = 0; i < lines.length; i++) {
    const h = /^#{1,6}\s+(.*)$/u.exec(lines[i]);
    if (h) { heading = h[1].trim(); nth = 0; continue; }
    const open = /^(`{3,})(\S*)\s*$/u.exec(lines[i]);
    if (!open) continue;
    let j = i + 1;
    while (j < lines.length && lines[j] !== open[1]) j++;
    const lang = open[2];
    const comments = [];
    for (let k = i - 1; k >= 0 && /^<!--.*-->$/u.test(lines[k]); k--) comments.push(lines[k]);
    if (["js", "mjs", "ts"].includes(lang)) {
      nth++;
      const marker = comments.map((c) => /<!-- quickstart: (\S+) -->/u.exec(c)?.[1]).find(Boolean);
      const key = `${file}#${marker ?? `${heading} ${nth}`}`;
      const fragment = comments.some((c) => /<!-- typecheck: fragment -->/u.test(c));
      blocks.push({ key, lang, code: lines.slice(i + 1, j).join("\n") + "\n", fragment, line: i + 1 });
    }
    i = j;
  }
  return blocks;
}

/**
 * The `@example` code of every doc comment in the package's typings: { key, lang: "ts", code }.
 * Each example is a whole module (its imports included) and is checked as a page would run it.
 */
export function typingExamples() {
  const out = [];
  for (const f of ["index.d.ts", "toolnexus_wasm.d.ts", "workflows/index.d.ts", "mcp/index.d.ts", "blobs.d.ts", "web-storage.d.ts", "agents.d.ts", "ui.d.ts"]) {
    const file = path.join(pkg, f);
    if (!fs.existsSync(file)) continue;
    const text = fs.readFileSync(file, "utf8");
    let n = 0;
    for (const m of text.matchAll(/@example\s*\n((?:\s*\*.*\n)*?)\s*\*\s*```ts\n((?:\s*\*.*\n)*?)\s*\*\s*```/gu)) {
      const code = m[2].split("\n").map((l) => l.replace(/^\s*\* ?/u, "")).join("\n");
      const at = text.slice(0, m.index).split("\n").length;
      out.push({ key: `pkg/${f}:${at} @example ${++n}`, lang: "ts", code, fragment: false });
    }
  }
  return out;
}

/** A compiler host that parses each file once for all the programs of one host's options (lib.dom is big). */
function cachingHost(options) {
  const host = ts.createCompilerHost(options);
  const cache = new Map();
  const get = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) => {
    if (!cache.has(name)) cache.set(name, get(name, version, ...rest));
    return cache.get(name);
  };
  return host;
}

/** Compiles `blocks` (each { key, lang, code, fragment }) per host; resolves to Map key → diagnostics text. */
function check(blocks, { asTs }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tnx-readme-types-"));
  try {
    fs.writeFileSync(path.join(dir, "package.json"), '{ "type": "module" }\n');
    fs.mkdirSync(path.join(dir, "node_modules"));
    fs.symlinkSync(pkg, path.join(dir, "node_modules/toolnexus-wasm"));
    fs.symlinkSync(pkg, path.join(dir, "toolnexus-wasm"));   // an extension imports its copy: ./toolnexus-wasm/index.js
    for (const lib of LIBRARIES) {
      const found = findTypes(lib);
      if (!found) continue;
      fs.mkdirSync(path.dirname(path.join(dir, "node_modules", lib)), { recursive: true });
      fs.symlinkSync(found, path.join(dir, "node_modules", lib));
    }
    fs.writeFileSync(path.join(dir, "fragment.d.ts"), FRAGMENT);
    fs.writeFileSync(path.join(dir, "chrome.d.ts"), CHROME);
    fs.writeFileSync(path.join(dir, "node.d.ts"), NODE);
    const byHost = new Map();
    blocks.forEach((b, i) => {
      const host = hostOf(b.code);
      const ext = b.lang === "ts" || asTs ? "mts" : "mjs";
      const name = `block${i}.${ext}`;
      fs.writeFileSync(path.join(dir, name), b.code);
      if (!byHost.has(host)) byHost.set(host, []);
      byHost.get(host).push({ ...b, name });
    });
    const results = new Map();
    for (const [host, list] of byHost) {
      const extra = [];
      const options = {
        strict: true, noEmit: true, allowJs: true, checkJs: true, module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022,
        lib: ["lib.es2022.d.ts", "lib.dom.d.ts"], types: [], skipLibCheck: true, forceConsistentCasingInFileNames: true,
      };
      if (host === "worker") {
        assert.ok(workersTypes, "@cloudflare/workers-types is not installed in tests/bundlers: run ./scripts/setup.sh --test");
        options.lib = ["lib.es2022.d.ts"];
        extra.push(path.join(workersTypes, "index.d.ts"));
      }
      if (host === "extension") extra.push(path.join(dir, "chrome.d.ts"));
      if (host === "node") {
        if (nodeTypes) { options.lib = ["lib.es2022.d.ts"]; options.types = ["node"]; options.typeRoots = [path.dirname(nodeTypes)]; }
        else extra.push(path.join(dir, "node.d.ts"));
      }
      // One program per block: a block is a file of its own in a user's project, and the
      // fragment names must not leak into a whole block.
      const compilerHost = cachingHost(options);
      for (const b of list) {
        const files = [path.join(dir, b.name), ...extra, ...(b.fragment ? [path.join(dir, "fragment.d.ts")] : [])];
        const program = ts.createProgram(files, options, compilerHost);
        const diags = ts.getPreEmitDiagnostics(program);
        results.set(b.key, { host, codes: diags.map((d) => d.code), text: ts.formatDiagnostics(diags, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => dir, getNewLine: () => "\n" }) });
      }
    }
    return results;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Asserts each block compiles, except KNOWN_TEXT_FAILURES, which must still fail. */
function assertBlocks(blocks, mode, opts) {
  const results = check(blocks, opts);
  const failures = [];
  const stale = [];
  for (const b of blocks) {
    const { host, codes, text } = results.get(b.key);
    const known = KNOWN_TEXT_FAILURES.get(`${b.key} ${mode}`);
    const unexplained = codes.filter((c) => !known?.includes(c));
    if (unexplained.length) failures.push(`${b.key} ${mode} (${host}, line ${b.line ?? "?"}):\n${text}\n${b.code}`);
    if (!text && known) stale.push(`${b.key} ${mode}`);
  }
  assert.deepEqual(stale, [], "these blocks compile now: take them off KNOWN_TEXT_FAILURES");
  assert.equal(failures.length, 0, `${failures.length} block(s) do not type-check:\n\n${failures.join("\n\n")}`);
}

const readmes = ["README.md", "pkg-template/README.md"];
const readmeBlocks = readmes.flatMap((f) => codeBlocks(f));

test("the READMEs' code blocks were found (their quick starts among them)", () => {
  assert.ok(readmeBlocks.length >= 10, readmeBlocks.map((b) => b.key).join("\n"));
  for (const q of ["README.md#node", "pkg-template/README.md#node", "pkg-template/README.md#worker.mjs", "pkg-template/README.md#sw.js"]) {
    assert.ok(readmeBlocks.some((b) => b.key === q), `no block ${q}`);
  }
  assert.equal(hostOf(readmeBlocks.find((b) => b.key === "pkg-template/README.md#worker.mjs").code), "worker");
  assert.equal(hostOf(readmeBlocks.find((b) => b.key === "pkg-template/README.md#sw.js").code), "extension");
  assert.equal(hostOf(readmeBlocks.find((b) => b.key === "README.md#node").code), "node");
});

test("every README js/ts block type-checks under strict as written (checkJs for .js)", () => {
  assertBlocks(readmeBlocks, "js", { asTs: false });
});

test("every README js block also type-checks pasted into a .ts file under strict", () => {
  // A block that types itself with JSDoc (`@type`, `@param`) is written for .js: pasted into a
  // .ts file those comments are not types, and a TypeScript user writes annotations instead.
  const pasteable = readmeBlocks.filter((b) => b.lang !== "ts" && !/@(type|param|returns|satisfies)\b/.test(b.code));
  assert.ok(pasteable.some((b) => b.key === "README.md#node") && pasteable.some((b) => b.key === "pkg-template/README.md#node"));
  assertBlocks(pasteable, "as-ts", { asTs: true });
});

test("every @example in the typings type-checks under strict", () => {
  const examples = typingExamples();
  assert.ok(examples.length >= 12, examples.map((e) => e.key).join("\n"));
  assertBlocks(examples, "ts", { asTs: true });
});

test("the checks catch what they should: a wrong type, an undefined name, and the fragment convention", () => {
  const md = [
    "## t", "```js", 'import { createClient } from "toolnexus-wasm";', 'createClient({ baseUrl: "u", style: "openai-chat", model: "m" });', "```",
    "```ts", 'import { defineTool } from "toolnexus-wasm";',
    'defineTool({ name: "n", description: "d", inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] }, run: async ({ n }) => n.toUpperCase() });', "```",
    "<!-- typecheck: fragment -->", "```js", 'import { createClient } from "toolnexus-wasm";',
    "const c = createClient({ ...options, apiKey }); await client.run('x', { toolkit }); render(String(c.model));", "```",
    "```js", "await client.run('x');", "```",
  ].join("\n");
  const blocks = codeBlocks("t.md", md);
  assert.deepEqual(blocks.map((b) => [b.key, b.fragment]), [["t.md#t 1", false], ["t.md#t 2", false], ["t.md#t 3", true], ["t.md#t 4", false]]);
  const r = check(blocks, { asTs: false });
  assert.match(r.get("t.md#t 1").text, /"openai-chat"/);
  assert.match(r.get("t.md#t 2").text, /toUpperCase/);   // `n` is a number, read from the literal schema
  assert.equal(r.get("t.md#t 3").text, "");
  assert.match(r.get("t.md#t 4").text, /Cannot find name 'client'/);
});
