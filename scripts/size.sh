#!/usr/bin/env bash
# The package's size budget: gzip level 9 (Node's zlib, as tests/js/package.test.mjs and
# bench/run.mjs count it) of everything the browser entry loads: the wasm, and every JS file
# index.js imports, directly or through another (its glue, exports.js, loader.js), with the
# glue's snippets (the edge's JS helpers), each file compressed on its own as a server sends it.
#   ./scripts/size.sh [pkg-dir]     prints the figures and exits 1 above the budget
#   SIZE_CHECK=0 ./scripts/size.sh  only prints (for experiments that go over on purpose)
set -euo pipefail
cd "$(dirname "$0")/.."
pkg=${1:-pkg}
budget=${SIZE_BUDGET:-147456}   # 144 KiB: the default entry with everything of the round of issues 30-36 (see docs/decisions/size.md)
node - "$pkg" "$budget" "${SIZE_CHECK:-1}" <<'JS'
const fs = require("node:fs"), path = require("node:path"), zlib = require("node:zlib");
const [pkg, budget, check] = process.argv.slice(2);
const gz = (f) => zlib.gzipSync(fs.readFileSync(path.join(pkg, f)), { level: 9 }).length;
const wasm = gz("toolnexus_wasm_bg.wasm");
const snippets = fs.existsSync(path.join(pkg, "snippets"))
  ? fs.readdirSync(path.join(pkg, "snippets"), { recursive: true }).filter((f) => f.endsWith(".js")).map((f) => path.join("snippets", f))
  : [];
// The static imports of the (minified) files, followed from the entry; a relative one that names
// no file fails the count, as it would fail the page.
const loads = new Set();
const follow = (f) => {
  if (loads.has(f)) return;
  if (!fs.existsSync(path.join(pkg, f))) throw new Error(`${f}, imported by the browser entry, is not in ${pkg}/`);
  loads.add(f);
  for (const [, spec] of fs.readFileSync(path.join(pkg, f), "utf8").matchAll(/(?:\bfrom|\bimport)\s*["'](\.\.?\/[^"']+)["']/g)) {
    follow(path.normalize(path.join(path.dirname(f), spec)));
  }
};
follow("index.js");
const js = [...new Set([...loads, ...snippets])].reduce((n, f) => n + gz(f), 0);
const raw = fs.statSync(path.join(pkg, "toolnexus_wasm_bg.wasm")).size;
console.log(`size ${pkg}/: wasm ${raw} B raw, ${wasm} B gzip; JS ${js} B gzip; total ${wasm + js} B gzip (budget ${budget})`);
if (check === "1" && wasm + js > +budget) {
  console.error(`!! over the size budget by ${wasm + js - budget} B`);
  process.exit(1);
}
JS
