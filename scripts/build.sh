#!/usr/bin/env bash
# Builds the npm package into ./pkg: wasm-pack (web target) output merged with pkg-template/.
# One build: every entry has translate; `toolnexus-wasm/full` is an alias in package.json.
#   PKG=dir ./scripts/build.sh        # into another directory
#   FEATURES=... ./scripts/build.sh   # extra cargo features
# Then scripts/size.sh checks the gzip budget of what the browser entry loads.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/tools/js/node_modules/.bin:$HOME/.cargo/bin:$PATH"   # npm binaryen's wasm-opt
# Panic locations name their source files, and a dependency's path starts with CARGO_HOME, which
# differs between machines (57 B gzip between two homes): mapped to one short prefix, the wasm is
# the same size on every machine, and smaller.
export RUSTFLAGS="${RUSTFLAGS:-} --remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}/registry/src=/c"
pkg=${PKG:-pkg}
# The edge's JS helpers (src/wasm/js/) bundled into the one module the wasm imports.
./scripts/host-js.sh
out=target/wasm-pack/web${FEATURES:+-$FEATURES}
# wasm-pack leaves the snippets of an earlier build in place: a helper since removed would ship
# (and count against the budget).
rm -rf "$out"/snippets
wasm-pack --quiet build --release --target web --weak-refs --out-dir "$out" --out-name toolnexus_wasm --mode no-install --no-pack ${FEATURES:+-- --features "$FEATURES"}
rm -rf "$pkg" && mkdir -p "$pkg"
cp "$out"/toolnexus_wasm.js "$out"/toolnexus_wasm.d.ts "$out"/toolnexus_wasm_bg.wasm "$out"/toolnexus_wasm_bg.wasm.d.ts "$pkg"/
# wasm-bindgen names a snippet module once per `extern` block that imports from it, each as its
# own `import * as importN` and its own key of the imports object: the same key several times
# (duplicate-key warnings from every bundler that reads the glue outside node_modules, e.g. after
# `npm i ./pkg`). Those namespaces are one module's, so the first key serves every import; the
# later keys and their imports go. The minifier below turns any duplicate key left into an error.
one_key_per_module() { # $1 = glue file
  perl -0pi -e '
    my (%first, @dropped);
    s{^\s*("[^"\n]+"): (import\d+),\n}{ exists $first{$1} ? do { push @dropped, $2; "" } : do { $first{$1} = $2; $& } }gme;
    for my $n (@dropped) { s{^import \* as \Q$n\E from "[^"\n]+";?\n}{}m or die "no import line for $n\n"; }
    for my $n (@dropped) { die "$n is still used\n" if /\b\Q$n\E\b/; }
  ' "$1"
}
one_key_per_module "$pkg"/toolnexus_wasm.js
cp -r pkg-template/. "$pkg"/
cp LICENSE "$pkg"/
# The edge's JS helpers (src/wasm/host.js, bundled from src/wasm/js/), imported by the glue as a
# wasm-bindgen snippet.
cp -r "$out"/snippets "$pkg"/
# The glue's adapters imported under short names instead of wasm-bindgen's hashed ones.
node scripts/import-names.mjs "$pkg"
# exports.js re-exports the error class from the edge's snippet, which the wasm constructs: one
# class for both (loader.js makes it too, for a failed load), and the package's modules make
# their errors with its `fail`. The snippet's directory name holds a hash, known only now.
err=$(cd "$pkg" && ls snippets/*/src/wasm/host.js)
[ "$(echo "$err" | wc -l)" = 1 ] || { echo "!! expected one host.js snippet, found: $err"; exit 1; }
to_snippet() { # $1 = the file in $pkg, $2 = the relative way up to $pkg ("." or "..")
  sed -i "s#from \"$2/host.js\"#from \"$2/$err\"#" "$pkg/$1"
  grep -q "from \"$2/$err\"" "$pkg/$1" || { echo "!! $1: the host.js import was not rewritten"; exit 1; }
}
# Every file of the package's top folder that imports it (the JS-written API is one file per idea).
for f in $(cd "$pkg" && grep -l 'from "\./host\.js"' -- *.js); do to_snippet "$f" .; done
to_snippet workflows/index.js ..
# The JS-written API is one source file per idea, which exports.js names for the entries; it
# ships as one module, exports.js, the others bundled into it: a browser fetches and gzips each
# file on its own, and ten small ones cost ~2.5 KB gzip more than their bundle. The glue,
# loader.js and the snippets stay modules of their own (one instance each, shared with the MCP
# entry). A bundled file is not shipped, so nothing else may import it.
esbuild "$pkg"/exports.js --bundle --format=esm --log-level=warning --allow-overwrite \
  --external:./toolnexus_wasm.js --external:./loader.js --external:'./snippets/*' \
  --metafile="$out"/exports.meta.json --outfile="$pkg"/exports.js
node -e '
  const fs = require("node:fs"), path = require("node:path");
  const [pkg, meta] = process.argv.slice(1);
  const bundled = Object.keys(JSON.parse(fs.readFileSync(meta, "utf8")).inputs).map((f) => path.relative(pkg, f)).filter((f) => f != "exports.js");
  for (const f of bundled) fs.rmSync(path.join(pkg, f));
  for (const f of fs.readdirSync(pkg, { recursive: true }).filter((f) => f.endsWith(".js"))) {
    const src = fs.readFileSync(path.join(pkg, f), "utf8");
    for (const b of bundled) {
      const spec = path.relative(path.dirname(f), b).replace(/^(?!\.)/, "./");
      if (src.includes(`"${spec}"`)) throw new Error(`${f} imports ${spec}, which is bundled into exports.js: import exports.js`);
    }
  }
' "$pkg" "$out"/exports.meta.json
# Minify the shipped JS in place (transform only, imports and exports kept): the glue is a
# third of the gzip budget unminified. Lines are cut at 160 characters (~260 B gzip), so an
# uncaught error prints a readable line of code in Node, not the whole glue on one line.
# A duplicate key in an object (see one_key_per_module) fails the build.
for f in "$pkg"/*.js "$pkg"/snippets/*/*/*/*.js; do
  esbuild "$f" --minify --line-limit=160 --format=esm --legal-comments=none --log-level=warning --log-override:duplicate-object-key=error --outfile="$f" --allow-overwrite
done
# Bundlers find the wasm by the literal `new URL("….wasm", import.meta.url)` on one line (Vite's
# pattern, webpack's): a cut line inside it (`import.meta.` / `url`) hides the asset (a 404 at
# init()). Join it again, and fail the build if the pattern is gone.
one_url() { # $1 = glue file, $2 = wasm file name
  perl -0pi -e 's/new\s+URL\(\s*("[^"]+")\s*,\s*import\s*\.\s*meta\s*\.\s*url\s*\)/new URL($1,import.meta.url)/g' "$1"
  grep -q "new URL(\"$2\",import.meta.url)" "$1" || { echo "!! $1: no one-line new URL(\"$2\", import.meta.url) for bundlers"; exit 1; }
}
one_url "$pkg"/toolnexus_wasm.js toolnexus_wasm_bg.wasm
# The MCP entry (toolnexus-wasm/mcp): the same crate with the `mcp` feature is a second, small
# wasm holding only the MCP client; it goes in $pkg/mcp/ beside its entry files, outside the
# default entry's budget. MCP=0 skips it.
if [ "${MCP:-1}" != 0 ]; then
  mcp_out=target/wasm-pack/web-mcp
  rm -rf "$mcp_out"/snippets
  wasm-pack --quiet build --release --target web --weak-refs --out-dir "$mcp_out" --out-name toolnexus_mcp --mode no-install --no-pack -- --features mcp
  cp "$mcp_out"/toolnexus_mcp.js "$mcp_out"/toolnexus_mcp.d.ts "$mcp_out"/toolnexus_mcp_bg.wasm "$mcp_out"/toolnexus_mcp_bg.wasm.d.ts "$pkg"/mcp/
  one_key_per_module "$pkg"/mcp/toolnexus_mcp.js
  cp -r "$mcp_out"/snippets "$pkg"/mcp/
  # Its snippets that the default entry ships too (host.js, with the ToolnexusError class both
  # wasm modules throw) are imported from the default entry's copy: one class in the package.
  node scripts/share-snippets.mjs "$pkg" "$out"
  # The MCP entry's api.js re-exports that class, from the same module.
  to_snippet mcp/api.js ..
  to_snippet mcp/oauth.js ..
  for f in "$pkg"/mcp/*.js $(find "$pkg"/mcp/snippets -name "*.js"); do
    esbuild "$f" --minify --line-limit=160 --format=esm --legal-comments=none --log-level=warning --log-override:duplicate-object-key=error --outfile="$f" --allow-overwrite
  done
  one_url "$pkg"/mcp/toolnexus_mcp.js toolnexus_mcp_bg.wasm
  # Its own files; the snippets it shares with the default entry (host.js) are counted there.
  node -e '
    const fs = require("node:fs"), zlib = require("node:zlib"), p = process.argv[1] + "/mcp/";
    const gz = (f) => zlib.gzipSync(fs.readFileSync(p + f), { level: 9 }).length;
    const snips = fs.readdirSync(p + "snippets", { recursive: true }).filter((f) => f.endsWith(".js")).map((f) => "snippets/" + f);
    const js = ["toolnexus_mcp.js", "index.js", "api.js", "oauth.js", ...snips].reduce((n, f) => n + gz(f), 0);
    console.log(`size ${p}: wasm ${gz("toolnexus_mcp_bg.wasm")} B gzip; JS ${js} B gzip; total ${gz("toolnexus_mcp_bg.wasm") + js} B gzip (the MCP entry, loaded beside the default one, whose host.js it shares)`);
  ' "$pkg"
else
  rm -rf "$pkg"/mcp
fi
# The typings `require` reads (package.json: "types" > "require"): each ES module typing copied as
# .d.cts with its relative imports pointed at the .d.cts beside them, so a CommonJS consumer's
# typings never import an ES module's (TypeScript refuses that under node16). After every rewrite
# of the typings above (import-names.mjs renames the glue's exports in toolnexus_wasm.d.ts).
for f in index toolnexus_wasm web-storage blobs agents ui in-process prompt-api browser workers-ai wasm mcp/index workflows/index; do
  [ -f "$pkg/$f.d.ts" ] || continue   # mcp/ is absent from an MCP=0 build
  sed -E 's#(from "\.\.?/[^"]*)\.js"#\1.cjs"#' "$pkg/$f.d.ts" > "$pkg/$f.d.cts"
done
./scripts/size.sh "$pkg"
