#!/usr/bin/env bash
# The API reference: TypeDoc over the package's typings (the entries `toolnexus-wasm`,
# `toolnexus-wasm/mcp`, `toolnexus-wasm/web-storage`, `toolnexus-wasm/blobs`, `toolnexus-wasm/agents`, `toolnexus-wasm/ui`, `toolnexus-wasm/in-process`, `toolnexus-wasm/prompt-api`, `toolnexus-wasm/browser`, `toolnexus-wasm/workers-ai` and
# `toolnexus-wasm/workflows` in pkg/) into www/api/, which the www page links to; the package
# README is its front page. Needs a built pkg/ (./scripts/build.sh) and the test tooling
# (./scripts/setup.sh --test installs TypeDoc in tests/bundlers). A TypeDoc warning
# (a type the reference names but cannot show, a broken link) fails it. Source links point at
# the repository of package.json, whatever remote (if any) this clone has.
#   OUT=dir ./scripts/apidocs.sh     # into another directory
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-www/api}
typedoc=tests/bundlers/node_modules/.bin/typedoc
[ -f pkg/package.json ] || { echo "!! apidocs: no pkg/; run ./scripts/build.sh first"; exit 1; }
[ -x "$typedoc" ] || { echo "!! apidocs: no TypeDoc; run ./scripts/setup.sh --test first"; exit 1; }
entries=(pkg/index.d.ts pkg/web-storage.d.ts pkg/blobs.d.ts pkg/agents.d.ts pkg/ui.d.ts pkg/in-process.d.ts)
entries+=(pkg/prompt-api.d.ts pkg/browser.d.ts pkg/workers-ai.d.ts)
entries+=(pkg/workflows/index.d.ts)
[ -f pkg/mcp/index.d.ts ] && entries+=(pkg/mcp/index.d.ts)   # absent from an MCP=0 build
# The compiler settings of a user's project (strict, nodenext), over exactly these typings.
mkdir -p target/apidocs
node -e '
  const files = process.argv.slice(1).map((f) => "../../" + f);
  const config = { compilerOptions: { strict: true, module: "nodenext", types: [], noEmit: true }, files };
  require("node:fs").writeFileSync("target/apidocs/tsconfig.json", JSON.stringify(config, null, 2) + "\n");
' "${entries[@]}"
version=$(node -p 'require("./pkg/package.json").version')
"$typedoc" --tsconfig target/apidocs/tsconfig.json --entryPoints "${entries[@]}" --readme pkg/README.md \
  --name "toolnexus-wasm $version" --out "$out" --treatWarningsAsErrors --logLevel Warn \
  --sourceLinkTemplate "https://github.com/toolnexus/toolnexus-wasm/blob/{gitRevision}/{path}#L{line}"
echo "API reference: $out/index.html ($(find "$out" -name '*.html' | wc -l) pages)"
