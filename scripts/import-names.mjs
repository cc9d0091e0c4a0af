// Shortens the names the wasm and its glue know each other by (scripts/build.sh runs it on the
// package, before minifying). Each name is written twice, once in the wasm and once in the glue,
// and both files count against the size budget:
// - imports: wasm-bindgen names each adapter `__wbg_<name>_<16 hex>`, in the wasm's import
//   section and as a key of the glue's imports object. The hashes do not compress (about 1 KB
//   gzip over both files), so each import of the glue's own module becomes its readable part
//   (`callModel`, `get2`). That module is renamed `wbg` (named once per import in the wasm).
//   Imports from other modules (the edge's snippet) keep their names: they are JS exports.
// - exports the glue calls (`wasm.client_run`, `wasm.__wbindgen_malloc`, ...) become `e0`,
//   `e1`, ... (about 0.4 KB gzip); `memory`, the externref table and exports the glue never
//   names keep their names.
//   The glue's `InitOutput` typings follow, and the raw module's typings where the package ships
//   them. Nothing else reaches these exports: the package exports only its own entries, and
//   init() returns nothing.
//   node scripts/import-names.mjs <pkg-dir>
import fs from "node:fs";
import path from "node:path";

const dir = process.argv[2];
const wasmFile = path.join(dir, "toolnexus_wasm_bg.wasm");
const glueFile = path.join(dir, "toolnexus_wasm.js");
const typesFile = path.join(dir, "toolnexus_wasm.d.ts");
// The raw module's typings (wasm-bindgen's `export const <export>: ...`), where a package ships them.
const wasmTypesFile = path.join(dir, "toolnexus_wasm_bg.wasm.d.ts");
const GLUE_MODULE = "./toolnexus_wasm_bg.js";
const fail = (m) => {
  console.error(`!! import-names: ${m}`);
  process.exit(1);
};

let bytes = fs.readFileSync(wasmFile);
let glue = fs.readFileSync(glueFile, "utf8");
let types = fs.readFileSync(typesFile, "utf8");
let wasmTypes = fs.existsSync(wasmTypesFile) ? fs.readFileSync(wasmTypesFile, "utf8") : undefined;
let pos;
const uleb = () => {
  let n = 0, shift = 0, b;
  do {
    b = bytes[pos++];
    n += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  return n;
};
const encUleb = (n) => {
  const out = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return Buffer.from(out);
};
const name = () => {
  const len = uleb();
  const s = bytes.toString("utf8", pos, pos + len);
  pos += len;
  return s;
};
const encName = (s) => Buffer.concat([encUleb(Buffer.byteLength(s)), Buffer.from(s)]);

// Reads the entries of section `id` with `entry()` (pos at the entry), lets `rename` change
// them, and writes the section back with `write(entry)`.
function rewriteSection(id, entry, rename, write) {
  pos = 8; // magic and version
  while (pos < bytes.length) {
    const headerStart = pos;
    const sid = bytes[pos++];
    const size = uleb();
    const end = pos + size;
    if (sid !== id) {
      pos = end;
      continue;
    }
    const count = uleb();
    const entries = [];
    for (let i = 0; i < count; i++) entries.push(entry());
    if (pos !== end) fail(`section ${id} was not read to its end`);
    rename(entries);
    const body = Buffer.concat([encUleb(count), ...entries.flatMap(write)]);
    bytes = Buffer.concat([bytes.subarray(0, headerStart), Buffer.from([id]), encUleb(body.length), body, bytes.subarray(end)]);
    return;
  }
  fail(`no section ${id}`);
}

// ---- imports (section 2) ----
const importEntry = () => {
  const module = name();
  const field = name();
  const descStart = pos;
  const kind = bytes[pos++];
  if (kind === 0) uleb(); // function: type index
  else if (kind === 1) {
    pos++; // table: reference type, then limits
    const flags = uleb();
    uleb();
    if (flags & 1) uleb();
  } else if (kind === 2) {
    const flags = uleb(); // memory: limits
    uleb();
    if (flags & 1) uleb();
  } else if (kind === 3) pos += 2; // global: value type, mutability (no GC types here)
  else if (kind === 4) {
    pos++; // tag
    uleb();
  } else fail(`import ${module}.${field} has an unknown kind ${kind}`);
  return { module, field, desc: bytes.subarray(descStart, pos) };
};
const renameImports = (imports) => {
  const taken = new Map();
  const shorts = new Set();
  for (const imp of imports) {
    if (imp.module !== GLUE_MODULE) continue;
    imp.module = "wbg";
    const base = imp.field.replace(/^__wbg_/, "").replace(/_[0-9a-f]{16}$/, "");
    const n = (taken.get(base) ?? 0) + 1;
    taken.set(base, n);
    const short = n === 1 ? base : `${base}${n}`;
    if (shorts.has(short)) fail(`two imports would be named ${short}`);
    shorts.add(short);
    if (short === imp.field) continue;
    // The glue's imports object has one key per adapter: `        <name>: function`.
    const key = new RegExp(`(^|\\n)(\\s+)${imp.field}(: function)`, "g");
    const hits = glue.match(key)?.length ?? 0;
    if (hits !== 1) fail(`${imp.field}: ${hits} keys in the glue's imports object, expected 1`);
    glue = glue.replace(key, `$1$2${short}$3`);
    if (glue.includes(imp.field)) fail(`${imp.field} is still named elsewhere in the glue`);
    imp.field = short;
  }
  const modKey = `"${GLUE_MODULE}": import0,`;
  if (glue.split(modKey).length !== 2) fail("the glue's imports object has no single key for its own module");
  glue = glue.replace(modKey, `"wbg": import0,`);
  // Functions the wasm imports straight from a snippet (the edge's JS helpers that need no
  // adapter): wasm-bindgen names the module by its path in each such import, and the glue
  // imports it again per group of them (`import * as import1 … import6`, each a key of the
  // imports object). One short module name (`s0`, …) and one namespace import per module instead.
  const snippets = new Map();
  for (const imp of imports) {
    if (!imp.module.startsWith("./snippets/")) continue;
    if (!snippets.has(imp.module)) snippets.set(imp.module, `s${snippets.size}`);
    imp.module = snippets.get(imp.module);
  }
  for (const [path, short] of snippets) {
    const esc = path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const lines = [...glue.matchAll(new RegExp(`^import \\* as (import\\d+) from "${esc}";?\\n`, "gm"))];
    const keys = [...glue.matchAll(new RegExp(`^\\s+"${esc}": (import\\d+),\\n`, "gm"))];
    if (!lines.length || lines.length !== keys.length) fail(`${path}: ${lines.length} namespace imports and ${keys.length} keys in the glue`);
    const ns = lines[0][1];
    for (const m of lines.slice(1)) glue = glue.replace(m[0], "");
    keys.forEach((m, i) => (glue = glue.replace(m[0], i ? "" : m[0].replace(`"${path}": ${m[1]}`, `"${short}": ${ns}`))));
    for (const m of lines.slice(1)) if (new RegExp(`\\b${m[1]}\\b`).test(glue)) fail(`${m[1]} is still named in the glue`);
    if (glue.includes(`"${path}":`)) fail(`${path} is still a key of the glue's imports object`);
  }
};
rewriteSection(2, importEntry, renameImports, (i) => [encName(i.module), encName(i.field), i.desc]);

// ---- exports (section 7) ----
const exportEntry = () => {
  const field = name();
  const descStart = pos;
  pos++; // kind
  uleb(); // index
  return { field, desc: bytes.subarray(descStart, pos) };
};
const renameExports = (exports) => {
  // The glue reaches the exports only as `wasm.<name>` (`wasm = instance.exports`).
  if (/\bwasm\s*\[/.test(glue) || (glue.match(/\bexports\b/g) ?? []).length !== 1) {
    fail("the glue reaches the wasm's exports other than as wasm.<name>");
  }
  const fields = new Set(exports.map((e) => e.field));
  let n = 0;
  for (const ex of exports) {
    // Functions only: `memory` and the externref table stay readable for tools that sample them
    // (bench/soak-runs.mjs reads `__wbindgen_externrefs`).
    if (ex.desc[0] !== 0) continue;
    const use = new RegExp(`\\bwasm\\.${ex.field.replace(/\$/g, "\\$")}\\b`, "g");
    if (!use.test(glue)) continue;
    let short;
    do short = `e${(n++).toString(36)}`;
    while (fields.has(short));
    glue = glue.replace(use, `wasm.${short}`);
    const typed = new RegExp(`(\\n\\s+readonly )${ex.field}(: )`);
    if (typed.test(types)) types = types.replace(typed, `$1${short}$2`);
    const declared = new RegExp(`(\\nexport const )${ex.field}(: )`);
    if (wasmTypes !== undefined && declared.test(wasmTypes)) wasmTypes = wasmTypes.replace(declared, `$1${short}$2`);
    ex.field = short;
  }
};
rewriteSection(7, exportEntry, renameExports, (e) => [encName(e.field), e.desc]);

fs.writeFileSync(wasmFile, bytes);
fs.writeFileSync(glueFile, glue);
fs.writeFileSync(typesFile, types);
if (wasmTypes !== undefined) fs.writeFileSync(wasmTypesFile, wasmTypes);
