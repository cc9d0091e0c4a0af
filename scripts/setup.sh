#!/usr/bin/env bash
# Installs everything the build, demo and tests need, idempotently, from the crates, npm and
# Debian registries only (no GitHub downloads). `--browser` adds Chromium + ChromeDriver and
# Firefox ESR + geckodriver (built from crates, pinned).
#   wasm32 target · wasm-pack 0.15.1 · wasm-bindgen CLI = the version in Cargo.lock ·
#   tools/js (binaryen wasm-opt, TypeScript, Miniflare) · tests/bundlers (bundlers, schema
#   libraries, publint, arethetypeswrong) · [chromium, chromium-driver, firefox-esr, geckodriver]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
export DEBIAN_FRONTEND=noninteractive

WASM_PACK_VERSION=0.15.1
GECKODRIVER_VERSION=0.37.1   # speaks to Firefox ESR 128+ (Debian ships 153 ESR)
# wasm-pack refuses a wasm-bindgen CLI whose version differs from Cargo.lock's wasm-bindgen.
WB_VERSION=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock)
: "${WB_VERSION:?cannot read the wasm-bindgen version from Cargo.lock}"

if [ "${1:-}" = "--browser" ]; then
  if ! dpkg -s chromium chromium-driver firefox-esr >/dev/null 2>&1; then
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends chromium chromium-driver firefox-esr >/dev/null
  fi
  # Debian's binaryen 108 silently corrupts wasm-bindgen output; wasm-pack would pick it from PATH.
  if dpkg -s binaryen >/dev/null 2>&1; then apt-get remove -y -qq binaryen >/dev/null; fi
fi

rustup target add wasm32-unknown-unknown >/dev/null 2>&1 || rustup target add wasm32-unknown-unknown
rustup component add rustfmt clippy >/dev/null 2>&1 || rustup component add rustfmt clippy   # the lint step of test.sh
if ! wasm-pack --version 2>/dev/null | grep -qx "wasm-pack $WASM_PACK_VERSION"; then
  cargo install wasm-pack --version "$WASM_PACK_VERSION" --locked
fi
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $WB_VERSION"; then
  # not --locked: its lockfile pins a webpki-roots release the registry does not have
  cargo install wasm-bindgen-cli --version "$WB_VERSION" --force
fi
if [ "${1:-}" = "--browser" ] && ! geckodriver --version 2>/dev/null | grep -q "^geckodriver $GECKODRIVER_VERSION\b"; then
  # No prebuilt download (registries only): a cold build costs ~150 s of CPU (about 1.5-2.5 min
  # on 2 idle cores, 5 min on a busy one), once per machine.
  cargo install geckodriver --version "$GECKODRIVER_VERSION" --locked
fi
# Reinstall only when the lockfile differs from the one the last install used.
if ! cmp -s tools/js/package-lock.json tools/js/node_modules/.installed-lock.json; then
  (cd tools/js && npm ci --no-audit --no-fund --loglevel=error && cp package-lock.json node_modules/.installed-lock.json)
fi
# The package tests' pinned tools (tests/bundlers: esbuild's peers Vite 8 and 6, webpack 5,
# wrangler, zod, valibot, arktype, publint, arethetypeswrong), the same way.
if ! cmp -s tests/bundlers/package-lock.json tests/bundlers/node_modules/.installed-lock.json; then
  (cd tests/bundlers && npm ci --no-audit --no-fund --loglevel=error && cp package-lock.json node_modules/.installed-lock.json)
fi
# The servers the MCP tests talk to (tests/mcp): the official MCP TypeScript SDK, pinned there.
if ! cmp -s tests/mcp/package-lock.json tests/mcp/node_modules/.installed-lock.json; then
  (cd tests/mcp && npm ci --no-audit --no-fund --loglevel=error && cp package-lock.json node_modules/.installed-lock.json)
fi
echo "toolchain ready: $(wasm-pack --version), $(wasm-bindgen --version), node $(node --version)"
if [ "${1:-}" = "--browser" ]; then
  echo "browsers: $(chromium --version 2>/dev/null), $(firefox-esr --version), $(geckodriver --version | head -1)"
fi
