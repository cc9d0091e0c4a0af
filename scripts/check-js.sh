#!/usr/bin/env bash
# Type-checks every JS file the package ships (each starts with `// @ts-check`): every
# pkg-template/*.js (the entries, the API's files, the JS-only subpaths web-storage.js, blobs.js, agents.js, ui.js and browser*.js) and
# pkg-template/mcp/*.js, and the edge's helpers (src/wasm/js/*.js, which src/wasm/host.js bundles,
# src/wasm/mcp.js, src/wasm/mcp_auth.js), staged in target/checkjs/ the way the package lays them
# out, beside the unminified glue wasm-bindgen made (scripts/build.sh must have run). Fails on any error and on
# a shipped file without `// @ts-check`.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/tools/js/node_modules/.bin:$PATH"
out=target/checkjs
rm -rf "$out" && mkdir -p "$out/mcp" "$out/workflows"
cp tests/checkjs/tsconfig.json tests/checkjs/shims.d.ts "$out"/
cp pkg-template/*.js "$out"/
cp pkg-template/mcp/*.js "$out"/mcp/
cp pkg-template/workflows/*.js "$out"/workflows/
# The committed bundle must be what src/wasm/js/ bundles to (the wasm embeds it as it is).
./scripts/host-js.sh "$out"/host.bundle.js
cmp -s "$out"/host.bundle.js src/wasm/host.js || { echo "!! src/wasm/host.js is stale: run ./scripts/host-js.sh"; exit 1; }
rm "$out"/host.bundle.js
# Its sources are type-checked (the bundle keeps no JSDoc), behind a host.js that is their entry.
mkdir -p "$out"/js && cp src/wasm/js/*.js "$out"/js/
printf '// @ts-check\nexport * from "./js/index.js";\n' > "$out"/host.js
cp src/wasm/mcp.js "$out"/mcp.js   # it imports ./host.js, as in src/wasm/
cp src/wasm/mcp_auth.js "$out"/mcp_auth.js   # so does this
cp target/wasm-pack/web/toolnexus_wasm.js target/wasm-pack/web/toolnexus_wasm.d.ts "$out"/
cat tests/checkjs/glue.d.ts >> "$out"/toolnexus_wasm.d.ts
cp target/wasm-pack/web-mcp/toolnexus_mcp.js target/wasm-pack/web-mcp/toolnexus_mcp.d.ts "$out"/mcp/
missing=$(grep -L "^// @ts-check" "$out"/*.js "$out"/js/*.js "$out"/mcp/*.js "$out"/workflows/*.js | grep -v "toolnexus_wasm.js\|toolnexus_mcp.js" || true)
[ -z "$missing" ] || { echo "!! shipped JS without // @ts-check: $missing"; exit 1; }
tsc -p "$out/tsconfig.json"
echo "check-js: every shipped JS file type-checks"
