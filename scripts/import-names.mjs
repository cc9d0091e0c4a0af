// Shortens the names under which the wasm imports the glue's adapters (scripts/build.sh runs it
// on the package, before minifying). wasm-bindgen names each adapter `__wbg_<name>_<16 hex>`,
// and the name is written twice: in the wasm's import section and as a key of the glue's
// imports object. The hashes do not compress (about 1 KB gzip over both files), so each import
// of the glue's own module becomes its readable part (`callModel`, `get2`), in both files.
// Imports from other modules (the edge's snippet) keep their names: they are JS exports.
//   node scripts/import-names.mjs <pkg-dir>
import fs from "node:fs";
import path from "node:path";

const dir = process.argv[2];
const wasmFile = path.join(dir, "toolnexus_wasm_bg.wasm");
const glueFile = path.join(dir, "toolnexus_wasm.js");
const GLUE_MODULE = "./toolnexus_wasm_bg.js";
const fail = (m) => {
  console.error(`!! import-names: ${m}`);
  process.exit(1);
};

const bytes = fs.readFileSync(wasmFile);
let pos = 8; // magic and version
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

// Finds the import section (id 2).
let section;
while (pos < bytes.length) {
  const id = bytes[pos++];
  const size = uleb();
  if (id === 2) {
    section = { start: pos, end: pos + size };
    break;
  }
  pos += size;
}
if (!section) fail("no import section");
const headerStart = section.start - 1 - encUleb(section.end - section.start).length;

// Reads each import, keeping the bytes of its descriptor as they are.
const count = uleb();
const imports = [];
for (let i = 0; i < count; i++) {
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
  else if (kind === 4) { pos++; uleb(); } // tag
  else fail(`import ${module}.${field} has an unknown kind ${kind}`);
  imports.push({ module, field, desc: bytes.subarray(descStart, pos) });
}
if (pos !== section.end) fail("the import section was not read to its end");

// New names: the readable part, numbered when several imports share it.
let glue = fs.readFileSync(glueFile, "utf8");
const taken = new Map();
const shorts = new Set();
for (const imp of imports) {
  if (imp.module !== GLUE_MODULE) continue;
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

const body = Buffer.concat([encUleb(count), ...imports.flatMap((i) => [encName(i.module), encName(i.field), i.desc])]);
const out = Buffer.concat([
  bytes.subarray(0, headerStart),
  Buffer.from([2]),
  encUleb(body.length),
  body,
  bytes.subarray(section.end),
]);
fs.writeFileSync(wasmFile, out);
fs.writeFileSync(glueFile, glue);
