// The package README shows examples/side-panel file by file: each block marked
// `<!-- file: <path> -->` must be that file of the repository as it is, so the README cannot drift
// from the example the tests build and run (tests/extension/side-panel.test.mjs). And every file
// of the example is shown, but for its own README and package.json.
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { repo } from "./readme.mjs";

/** The blocks of `file` marked with a file path: Map of path → code (a quickstart marker may sit between). */
function fileBlocks(file) {
  const text = fs.readFileSync(path.join(repo, file), "utf8");
  const marker = /^<!-- file: (\S+) -->\n(?:<!-- quickstart: \S+ -->\n)?(`{3,})\S*\n([\s\S]*?)\n\2$/gmu;
  const blocks = new Map([...text.matchAll(marker)].map(([, p, , code]) => [p, `${code}\n`]));
  const markers = [...text.matchAll(/<!-- file: (\S+) -->/gu)].map((m) => m[1]);
  for (const p of markers) assert.ok(blocks.has(p), `${file}: the marker for ${p} is not followed by a fenced block`);
  return blocks;
}

test("pkg-template/README.md shows examples/side-panel's files exactly as they are", () => {
  const blocks = fileBlocks("pkg-template/README.md");
  const shown = [...blocks.keys()].filter((p) => p.startsWith("examples/side-panel/")).sort();
  const files = fs.readdirSync(path.join(repo, "examples/side-panel"), { recursive: true })
    .map((f) => `examples/side-panel/${f.split(path.sep).join("/")}`)
    .filter((f) => fs.statSync(path.join(repo, f)).isFile() && !/\/(node_modules|dist)\//.test(f))
    .filter((f) => !/\/(README\.md|package\.json|package-lock\.json)$/.test(f)).sort();
  assert.deepEqual(shown, files, "every file of the example is shown, and nothing else under its path");
  for (const p of shown) assert.equal(blocks.get(p), fs.readFileSync(path.join(repo, p), "utf8"), `${p}: the README's block differs from the file`);
});
