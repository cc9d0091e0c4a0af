#!/usr/bin/env bash
# Every test: formatting and clippy (native and wasm32), native cargo tests, wasm-bindgen tests
# in Node, headless Chromium (page and service worker) and headless Firefox ESR (page, dedicated
# and service worker), the TypeScript typings check, publint and arethetypeswrong, the package
# from its tarball under each bundler, and node --test against the built package in Node, in
# workerd, the extension example in Chromium and Firefox, the www page in Chromium, and the
# READMEs' quick starts as written (tests/quickstart).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh --test
export PATH="$PWD/tools/js/node_modules/.bin:$HOME/.cargo/bin:$PATH"

mkdir -p target   # logs below live here; a fresh clone has no target/ yet
echo "== lint: cargo fmt --check; clippy -D warnings, native and wasm32"
cargo fmt --check
cargo clippy --quiet --all-targets -- -D warnings
cargo clippy --quiet --target wasm32-unknown-unknown --all-targets -- -D warnings
cargo clippy --quiet --target wasm32-unknown-unknown --lib --features mcp -- -D warnings   # the MCP entry's edge

echo "== native: cargo test"
cargo test --quiet 2>&1 | tee target/native-tests.log
grep -q "test result: ok" target/native-tests.log

echo "== fuzz: a bounded libFuzzer run of every target in fuzz/ (nightly only; skipped, with a note, without it)"
./scripts/fuzz.sh 10

echo "== build the npm package"
./scripts/build.sh
# tests/js import the package by name, resolved through its package.json "exports".
mkdir -p tests/js/node_modules && ln -sfn ../../../pkg tests/js/node_modules/toolnexus-wasm
ln -sfn ../../../pkg tests/mcp/node_modules/toolnexus-wasm   # beside the MCP SDK setup.sh installed there
ln -sfn ../../../pkg tests/ui/node_modules/toolnexus-wasm    # beside the AI SDK setup.sh installed there

# The scripted model for the wasm tests; its address is baked into tests/wasm.rs at compile time.
PORT=18411
export TOOLNEXUS_STUB_URL="http://127.0.0.1:$PORT"
node demo/scripted-model.mjs "$PORT" > target/scripted-model.log 2>&1 &
STUB_PID=$!
trap 'kill $STUB_PID 2>/dev/null || true' EXIT
for _ in $(seq 50); do grep -q listening target/scripted-model.log && break; sleep 0.1; done

expected=$(grep -c '^#\[wasm_bindgen_test\]' tests/wasm.rs)
wasm_run() { # $1 = label; the rest: env assignments and flags for wasm-pack test
  local label=$1; shift
  echo "== wasm-bindgen-test: $label"
  env "$@" -- --test wasm 2>&1 | tee "target/wasm-$label.log"
  if ! grep -qE "^test result: ok\. $expected passed; 0 failed" "target/wasm-$label.log"; then
    echo "!! $label: expected $expected wasm tests to pass (a skipped browser run reports 0)"; exit 1
  fi
}
wasm_run node wasm-pack test --node --mode no-install
wasm_run chromium WASM_BINDGEN_USE_BROWSER=1 wasm-pack test --headless --chrome --mode no-install
wasm_run chromium-service-worker WASM_BINDGEN_USE_SERVICE_WORKER=1 wasm-pack test --headless --chrome --mode no-install
wasm_run firefox WASM_BINDGEN_USE_BROWSER=1 wasm-pack test --headless --firefox --mode no-install
wasm_run firefox-worker WASM_BINDGEN_USE_DEDICATED_WORKER=1 wasm-pack test --headless --firefox --mode no-install
wasm_run firefox-service-worker WASM_BINDGEN_USE_SERVICE_WORKER=1 wasm-pack test --headless --firefox --mode no-install

echo "== typings: tsc --noEmit, strict, with and without skipLibCheck; a user's tsconfig (strict and module settings only, no lib); the shipped JS under // @ts-check"
tsc -p tests/js/tsconfig.json
tsc -p tests/js/tsconfig.skiplib.json
tsc -p tests/mcp/tsconfig.json   # the MCP entry's typings
tsc -p tests/ui/tsconfig.json    # toolnexus-wasm/ui against the AI SDK's own types (ChatTransport, UIMessageChunk)
tsc -p tests/js/tsconfig.default.json    # module node16 (lib es2022), CommonJS: the require typings
tsc -p tests/js/tsconfig.bundler.json    # module preserve, target es2022: the ES module typings
tsc -p tests/js/tsconfig.nodenext.json   # module nodenext (lib esnext): a Toolkit is Disposable
./scripts/check-js.sh             # every shipped JS file is // @ts-check and type-checks

echo "== package lint: publint --strict and arethetypeswrong (its default profile: node10, node16 CommonJS and ESM, bundler) on the packed package, every subpath of its exports"
(cd tests/bundlers && node_modules/.bin/publint --strict ../../pkg)
tgz=$(cd pkg && npm pack --silent --pack-destination ../target | tail -1)
(cd tests/bundlers && node_modules/.bin/attw "../../target/$tgz")

echo "== the package from its tarball under esbuild, Vite (8, 6 and its dev server), webpack 5 (in Chromium) and wrangler (in workerd); zod, valibot and arktype tools; wrangler bundles a linked install with no warning; the API reference (TypeDoc) builds"
node --test tests/bundlers/

echo "== node --test: the package in Node; MCP and the other tool sources against the official SDKs' servers; workerd (Miniflare): package, KV, Worker example, proxy with the official openai client; the agent in Cloudflare Workflows (restart, retried model step, 100 instances); Chromium (Playwright): MV3 extensions, the www page and its useChat version; Firefox ESR (geckodriver): the MV3 extension example; the READMEs' quick starts as written, in a clean copy (Node, the page and the extension in Chromium, the Worker under wrangler dev)"
node --test tests/js/ tests/ui/ tests/mcp/ tests/workerd/ tests/workflows/ tests/extension/ tests/browser/ tests/proxy/ tests/www.test.mjs tests/www-chat.test.mjs tests/firefox/ tests/quickstart/
