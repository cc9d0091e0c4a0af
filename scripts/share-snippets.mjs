// The MCP entry's wasm-bindgen snippets that the default entry ships too (the same source file,
// at the same path under snippets/: src/wasm/host.js, whose ToolnexusError both wasm modules
// throw) are imported from the default entry's copy, and the MCP
// entry's copy is removed. The package then holds one module of each, so a bundler, Node or a
// browser loads one ToolnexusError class for both entries and `instanceof` holds across them.
// scripts/build.sh runs it before minifying the MCP entry (import paths are cut across lines
// after that); the default entry's copy, minified already, is compared as wasm-pack wrote it.
// Fails if the MCP entry would still load a host.js of its own.
//   node scripts/share-snippets.mjs <pkg-dir> <the default entry's wasm-pack out dir>
import fs from "node:fs";
import path from "node:path";

const [pkg, raw] = process.argv.slice(2);
const mcp = path.join(pkg, "mcp");
const fail = (m) => {
  console.error(`!! share-snippets: ${m}`);
  process.exit(1);
};
const files = (dir) => (fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map((f) => path.join(dir, f)).filter((f) => fs.statSync(f).isFile()) : []);

// MCP snippet path -> the default entry's copy of it.
const shared = new Map();
for (const f of files(path.join(mcp, "snippets"))) {
  const twin = path.join(pkg, path.relative(mcp, f));
  if (!fs.existsSync(twin)) continue;
  const source = path.join(raw, path.relative(mcp, f));
  if (!fs.readFileSync(source).equals(fs.readFileSync(f))) fail(`${source} and ${f} differ`);
  shared.set(path.resolve(f), path.resolve(twin));
}
// Import specifiers in the glue and the remaining snippets (`from "…"`, `import "…"`), not the
// glue's imports-object keys, which are the wasm's import module names and stay as they are.
for (const f of [...files(mcp).filter((f) => !f.includes(`${path.sep}snippets${path.sep}`)), ...files(path.join(mcp, "snippets"))]) {
  if (!f.endsWith(".js") || shared.has(path.resolve(f))) continue;
  const text = fs.readFileSync(f, "utf8");
  const out = text.replace(/(\bfrom\s*|\bimport\s*)(["'])(\.{1,2}\/[^"']+)\2/g, (all, kw, q, spec) => {
    const twin = shared.get(path.resolve(path.dirname(f), spec));
    if (!twin) return all;
    let rel = path.relative(path.dirname(f), twin).split(path.sep).join("/");
    if (!rel.startsWith(".")) rel = "./" + rel;
    return `${kw}${q}${rel}${q}`;
  });
  if (out !== text) fs.writeFileSync(f, out);
}
for (const f of shared.keys()) fs.rmSync(f);
// Directories left empty.
for (const d of fs.readdirSync(path.join(mcp, "snippets"), { recursive: true }).map((d) => path.join(mcp, "snippets", d)).sort().reverse()) {
  if (fs.statSync(d).isDirectory() && fs.readdirSync(d).length === 0) fs.rmdirSync(d);
}
const own = files(path.join(mcp, "snippets")).filter((f) => f.endsWith(`${path.sep}host.js`));
if (own.length) fail(`the MCP entry still has its own ${own.join(", ")}: two ToolnexusError classes`);
const glue = fs.readFileSync(path.join(mcp, "toolnexus_mcp.js"), "utf8");
if (!/from\s*"\.\.\/snippets\/[^"]+\/src\/wasm\/host\.js"/.test(glue)) fail("the MCP glue does not import the default entry's host.js");
