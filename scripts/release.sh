#!/usr/bin/env bash
# Prepares a release of the npm package and stops short of publishing, which stays a person's
# step: checks that Cargo.toml, Cargo.lock, pkg-template/package.json and CHANGELOG.md carry one
# version, runs every test (./scripts/test.sh, which builds pkg/ and installs what it needs),
# packs pkg/ into dist/ with `npm pack`, lists the tarball's files, and prints the commands that
# publish it. Nothing is published, tagged or pushed.
#   ./scripts/release.sh             # from a clean, committed tree
#   ./scripts/release.sh --no-test   # build and pack only, to look at the tarball: not for publishing
set -euo pipefail
cd "$(dirname "$0")/.."
test_run=1
case "${1:-}" in
  "") ;;
  --no-test) test_run=0 ;;
  *) echo "usage: $0 [--no-test]"; exit 2 ;;
esac

# One version. tests/js/version.test.mjs checks the same; here it fails in seconds, not minutes.
version=$(awk '/^\[package\]/{p=1; next} /^\[/{p=0} p && /^version *=/{gsub(/version *= *|"/,""); print; exit}' Cargo.toml)
npm_version=$(node -p 'require("./pkg-template/package.json").version')
lock_version=$(awk '/^name = "toolnexus-wasm"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock)
changelog=$(grep -m1 -oE '^## \[[0-9][^]]*\].*' CHANGELOG.md || true)
[ -n "$version" ] || { echo "!! no version in Cargo.toml's [package]"; exit 1; }
[ "$npm_version" = "$version" ] || { echo "!! Cargo.toml says $version, pkg-template/package.json says $npm_version"; exit 1; }
[ "$lock_version" = "$version" ] || { echo "!! Cargo.lock says $lock_version (run cargo build to update it), Cargo.toml $version"; exit 1; }
case "$changelog" in
  "## [$version]"*) ;;
  *) echo "!! CHANGELOG.md's first version heading is '${changelog:-none}', not [$version]"; exit 1 ;;
esac
echo "== toolnexus-wasm $version ($changelog)"

# A release is made from what is committed: the tarball must be what the tag will point at.
if [ -n "$(git status --porcelain)" ]; then
  if [ "$test_run" = 1 ]; then echo "!! uncommitted changes (git status): commit them first"; exit 1; fi
  echo "note: uncommitted changes in the tree"
fi

if [ "$test_run" = 1 ]; then
  ./scripts/test.sh   # installs the tooling, lints, builds pkg/ and runs every test
else
  ./scripts/setup.sh
  ./scripts/build.sh
fi

mkdir -p dist
rm -f "dist/toolnexus-wasm-$version.tgz"
# --json: the file list, sizes and checksums of exactly what was packed.
(cd pkg && npm pack --json --pack-destination ../dist) > target/release-pack.json
node -e '
  const [info] = JSON.parse(require("node:fs").readFileSync("target/release-pack.json", "utf8"));
  const kb = (n) => (n / 1024).toFixed(1).padStart(8) + " KiB";
  console.log(`== dist/${info.filename}: ${info.entryCount} files`);
  for (const f of info.files.sort((a, b) => a.path.localeCompare(b.path))) console.log(`${kb(f.size)}  ${f.path}`);
  console.log(`packed ${kb(info.size).trim()}, unpacked ${kb(info.unpackedSize).trim()}`);
  console.log(`shasum    ${info.shasum}`);
  console.log(`integrity ${info.integrity}`);
'
tgz="dist/toolnexus-wasm-$version.tgz"
[ -f "$tgz" ] || { echo "!! npm pack did not write $tgz"; exit 1; }

if [ "$test_run" = 0 ]; then
  echo "!! packed WITHOUT running the tests (--no-test): do not publish this tarball"
  exit 0
fi
echo "== ready: $tgz, built and tested from $(git rev-parse --short HEAD)"
echo "To publish (a person's step; this script never does it):"
case "$changelog" in
  *Unreleased*) echo "  - date CHANGELOG.md's heading, \"## [$version] - $(date +%Y-%m-%d)\", and commit it (the tarball does not hold the changelog)" ;;
esac
echo "  - npm publish $tgz      (after npm login; --dry-run rehearses it)"
echo "  - git tag -a v$version -m \"toolnexus-wasm $version\" && git push origin v$version"
