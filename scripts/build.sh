#!/usr/bin/env bash
# Builds the npm package into ./pkg: wasm-pack (web target) output merged with pkg-template/.
# With no arguments it builds both: the default entries (sized for extensions) and, under
# pkg/full/, the same entries built with the `translate` feature (`import … from
# "toolnexus-wasm/full"`, for Workers and servers).
#   FEATURES=translate PKG=dir ./scripts/build.sh    # one build only, into dir
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/tools/js/node_modules/.bin:$HOME/.cargo/bin:$PATH"   # npm binaryen's wasm-opt
pkg=${PKG:-pkg}
out=target/wasm-pack/web${FEATURES:+-$FEATURES}
wasm-pack --quiet build --release --target web --weak-refs --out-dir "$out" --out-name toolnexus_wasm --mode no-install --no-pack ${FEATURES:+-- --features "$FEATURES"}
rm -rf "$pkg" && mkdir -p "$pkg"
cp "$out"/toolnexus_wasm.js "$out"/toolnexus_wasm.d.ts "$out"/toolnexus_wasm_bg.wasm "$out"/toolnexus_wasm_bg.wasm.d.ts "$pkg"/
cp pkg-template/* "$pkg"/
# Minify the shipped JS in place (transform only, imports and exports kept): the glue is a
# third of the gzip budget unminified.
for f in "$pkg"/*.js; do
  esbuild "$f" --minify --format=esm --legal-comments=none --log-level=warning --outfile="$f" --allow-overwrite
done
echo "built $pkg/ (wasm $(wc -c < "$pkg"/toolnexus_wasm_bg.wasm) B, $(gzip -9c "$pkg"/toolnexus_wasm_bg.wasm | wc -c) B gzip; JS $(cat "$pkg"/toolnexus_wasm.js "$pkg"/index.js "$pkg"/iterable.js "$pkg"/stores.js | gzip -9c | wc -c) B gzip)"

# The default invocation also builds the full variant into pkg/full (no package.json or README).
if [ -z "${PKG:-}" ] && [ -z "${FEATURES:-}" ]; then
  FEATURES=translate PKG=pkg/full "$0"
  rm -f pkg/full/package.json pkg/full/README.md
fi
