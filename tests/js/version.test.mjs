// One version: Cargo.toml, Cargo.lock, pkg-template/package.json (and the built package's copy),
// CHANGELOG.md's first version heading and the tarball names the READMEs install all agree.
// scripts/release.sh checks the same before it builds.
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const read = (f) => fs.readFileSync(path.join(root, f), "utf8");

/** The `version` of Cargo.toml's [package] table. */
function cargoVersion(toml) {
  const pkg = toml.match(/^\[package\]\n([\s\S]*?)(?=^\[)/m)?.[1] ?? "";
  return pkg.match(/^version\s*=\s*"([^"]+)"/m)?.[1];
}

test("Cargo.toml, Cargo.lock, package.json and CHANGELOG.md carry one version", () => {
  const version = cargoVersion(read("Cargo.toml"));
  assert.match(version ?? "", /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/, "Cargo.toml [package] version");
  assert.equal(JSON.parse(read("pkg-template/package.json")).version, version, "pkg-template/package.json");
  if (fs.existsSync(path.join(root, "pkg/package.json"))) {
    assert.equal(JSON.parse(read("pkg/package.json")).version, version, "pkg/package.json (rebuild with ./scripts/build.sh)");
  }
  const lock = read("Cargo.lock").match(/^name = "toolnexus-wasm"\nversion = "([^"]+)"/m)?.[1];
  assert.equal(lock, version, "Cargo.lock (cargo updates it on the next build)");
  // The first `## [x.y.z]` heading (an `## [Unreleased]` section may sit above it).
  const heading = read("CHANGELOG.md").match(/^## \[(\d[^\]]*)\]/m)?.[1];
  assert.equal(heading, version, "CHANGELOG.md's first version heading");
  for (const f of ["README.md", "pkg-template/README.md"]) {
    for (const [, v] of read(f).matchAll(/toolnexus-wasm-(\d+\.\d+\.\d+[^/\s`]*?)\.tgz/g)) assert.equal(v, version, `${f}: a tarball name`);
  }
});
