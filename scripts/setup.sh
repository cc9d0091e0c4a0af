#!/usr/bin/env bash
# Installs what the build and demo need, or with `--test` everything the tests need too,
# idempotently, from the crates, npm and Debian registries only (no GitHub downloads).
#   ./scripts/setup.sh          the build and the demo (scripts/demo.sh): the wasm32 target,
#                               wasm-pack 0.15.1, the wasm-bindgen CLI = the version in
#                               Cargo.lock, tools/js's dependencies (binaryen's wasm-opt, esbuild)
#   ./scripts/setup.sh --test   (`--browser` is the same) the above, and for scripts/test.sh:
#                               rustfmt and clippy, tools/js's devDependencies (Miniflare,
#                               Playwright, TypeScript, openai), tests/bundlers (bundlers, schema
#                               libraries, wrangler, publint, arethetypeswrong), tests/mcp (the
#                               MCP and A2A SDKs' servers), Debian's chromium, chromium-driver
#                               and firefox-esr, geckodriver (built from crates, pinned)
# Rust (rustup) and Node 20+ must be there already: the registries this script uses have no
# rustup, and Debian's Node is too old.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$PATH"
export DEBIAN_FRONTEND=noninteractive

tests=0
case "${1:-}" in
  --test | --browser) tests=1 ;;
  "") ;;
  *) echo "usage: $0 [--test]" >&2; exit 2 ;;
esac

WASM_PACK_VERSION=0.15.1
GECKODRIVER_VERSION=0.37.1   # speaks to Firefox ESR 128+ (Debian ships 153 ESR)
# wasm-pack refuses a wasm-bindgen CLI whose version differs from Cargo.lock's wasm-bindgen.
WB_VERSION=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock)
: "${WB_VERSION:?cannot read the wasm-bindgen version from Cargo.lock}"

command -v rustup >/dev/null && command -v cargo >/dev/null ||
  { echo "!! Rust is missing: install it with rustup (https://rustup.rs), then run this again" >&2; exit 1; }
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
[ "$node_major" -ge 20 ] ||
  { echo "!! Node 20 or later is needed (found: $(node --version 2>/dev/null || echo none)); see https://nodejs.org" >&2; exit 1; }

if [ "$tests" = 1 ]; then
  if ! dpkg -s chromium chromium-driver firefox-esr >/dev/null 2>&1; then
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends chromium chromium-driver firefox-esr >/dev/null
  fi
  # Debian's binaryen 108 silently corrupts wasm-bindgen output; wasm-pack would pick it from PATH.
  if dpkg -s binaryen >/dev/null 2>&1; then apt-get remove -y -qq binaryen >/dev/null; fi
fi

rustup target add wasm32-unknown-unknown >/dev/null 2>&1 || rustup target add wasm32-unknown-unknown
if [ "$tests" = 1 ]; then   # the lint step of test.sh
  rustup component add rustfmt clippy >/dev/null 2>&1 || rustup component add rustfmt clippy
fi
if ! wasm-pack --version 2>/dev/null | grep -qx "wasm-pack $WASM_PACK_VERSION"; then
  cargo install wasm-pack --version "$WASM_PACK_VERSION" --locked
fi
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $WB_VERSION"; then
  # not --locked: its lockfile pins a webpki-roots release the registry does not have
  cargo install wasm-bindgen-cli --version "$WB_VERSION" --force
fi
if [ "$tests" = 1 ] && ! geckodriver --version 2>/dev/null | grep -q "^geckodriver $GECKODRIVER_VERSION\b"; then
  # No prebuilt download (registries only): a cold build costs ~150 s of CPU (about 1.5-2.5 min
  # on 2 idle cores, 5 min on a busy one), once per machine.
  cargo install geckodriver --version "$GECKODRIVER_VERSION" --locked
fi

npm_ci() { # $1 = folder, the rest = npm ci flags. Reinstalls only when the lockfile differs from
  # the one the last install of that kind used (marker: node_modules/.installed-<kind>.json).
  local dir=$1 kind=lock; shift
  [ "$*" = "--omit=dev" ] && kind=build
  # A full install (.installed-lock.json) holds the build's part too.
  cmp -s "$dir"/package-lock.json "$dir"/node_modules/.installed-lock.json && return
  [ "$kind" = build ] && cmp -s "$dir"/package-lock.json "$dir"/node_modules/.installed-build.json && return
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error "$@" && cp package-lock.json "node_modules/.installed-$kind.json")
}
if [ "$tests" = 1 ]; then
  npm_ci tools/js
  # The package tests' pinned tools (esbuild's peers Vite 8 and 6, webpack 5, wrangler, zod,
  # valibot, arktype, publint, arethetypeswrong).
  npm_ci tests/bundlers
  # The servers the MCP tests talk to: the official MCP TypeScript SDK, pinned there.
  npm_ci tests/mcp
  # The AI SDK's client (`ai`: AbstractChat, DefaultChatTransport, the chunk schema) that the UI
  # message stream tests drive the loop with.
  npm_ci tests/ui
else
  npm_ci tools/js --omit=dev   # the build's wasm-opt and esbuild only (~120 MB, not ~750 MB)
fi
echo "toolchain ready: $(wasm-pack --version), $(wasm-bindgen --version), node $(node --version)"
if [ "$tests" = 1 ]; then
  echo "browsers: $(chromium --version 2>/dev/null), $(firefox-esr --version), $(geckodriver --version | head -1)"
fi
