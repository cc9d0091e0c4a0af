#!/usr/bin/env bash
# Copies the built package (pkg/), the scripted model (demo/scripted-logic.mjs) and the
# transcript lines (demo/transcript.mjs, shared with the www page) into an example that loads
# files, not packages: the unbundled MV3 extension, whose service worker imports ./pkg/… and
# ./scripted-logic.mjs and whose side panel ./transcript.mjs (Chrome resolves no bare specifiers
# there):
#   ./scripts/copy-pkg.sh examples/extension
# The other examples import toolnexus-wasm by name from their package.json (`file:../../pkg`):
# `npm install` in their folder links the build instead, and this script says so.
# Idempotent: the folder's pkg/ is replaced as a whole (`cp -r pkg dir/pkg` a second time would
# nest the copy in dir/pkg/pkg and leave the old build in use). Run it again after every build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# = 1 ] || { echo "usage: $0 <folder>   e.g. $0 examples/extension" >&2; exit 2; }
[ -d "$1" ] || { echo "!! $1 is not a folder" >&2; exit 1; }
dest=$(cd "$1" && pwd)
[ "$dest" != "$root" ] || { echo "!! $1 is the repository itself: its pkg/ is the source" >&2; exit 1; }
if [ -f "$dest/package.json" ]; then
  echo "!! $1 imports toolnexus-wasm by name (its package.json): run \`npm install\` there instead (cd $1 && npm install)" >&2
  exit 1
fi
[ -f "$root/pkg/package.json" ] || { echo "!! $root/pkg is not built: run ./scripts/build.sh (or ./scripts/demo.sh) first" >&2; exit 1; }
rm -rf "$dest/pkg"
cp -R "$root/pkg" "$dest/pkg"
cp "$root/demo/scripted-logic.mjs" "$root/demo/transcript.mjs" "$dest"/
echo "copied pkg/ ($(node -p 'require(process.argv[1]).version' "$root/pkg/package.json")), scripted-logic.mjs and transcript.mjs into $1"
