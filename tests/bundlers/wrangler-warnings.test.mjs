// wrangler bundles the shipped code without a single warning. The package is installed as the
// README's local install does (`npm i ./pkg`: a link), so the glue is read outside node_modules,
// where esbuild (wrangler's bundler) reports what it finds in it: wasm-bindgen's imports object
// named one module several times (a duplicate-key warning for each, on every `wrangler dev`).
// Needs ./scripts/build.sh (pkg/) and ./scripts/setup.sh (wrangler in this directory).
import test from "node:test";
import assert from "node:assert/strict";
import { spawnSync, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const wrangler = path.join(path.dirname(createRequire(path.join(here, "package.json")).resolve("wrangler/package.json")), "bin/wrangler.js");

test("wrangler deploy --dry-run bundles every entry of a locally installed package with no warning", (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolnexus-wrangler-"));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, "package.json"), '{ "private": true }\n');
  execFileSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--offline", "--loglevel=error", path.join(root, "pkg")], { cwd: dir });
  assert.ok(fs.lstatSync(path.join(dir, "node_modules/toolnexus-wasm")).isSymbolicLink(), "npm i <folder> links the package");
  fs.writeFileSync(path.join(dir, "worker.js"), [
    'import { createClient, createToolkit } from "toolnexus-wasm";',
    'import { mcpTools } from "toolnexus-wasm/mcp";',
    'import { localStorageStore } from "toolnexus-wasm/web-storage";',
    'import { withBlobs, BlobObject } from "toolnexus-wasm/blobs";',
    'import { WorkflowEntrypoint } from "cloudflare:workers";',
    'import { runInWorkflow } from "toolnexus-wasm/workflows";',
    "export { BlobObject };",
    "export class Agent extends WorkflowEntrypoint { run(event, step) { return runInWorkflow(step, event.payload); } }",
    "export default { async fetch() { return Response.json([createClient, createToolkit, mcpTools, localStorageStore, withBlobs, runInWorkflow].map((f) => typeof f)); } };",
    "",
  ].join("\n"));
  fs.writeFileSync(path.join(dir, "wrangler.toml"), 'name = "toolnexus-warnings"\nmain = "worker.js"\ncompatibility_date = "2026-01-01"\n\n[[workflows]]\nname = "agent"\nbinding = "AGENT"\nclass_name = "Agent"\n');
  const r = spawnSync(process.execPath, [wrangler, "deploy", "--dry-run", "--outdir", "dist"], {
    cwd: dir, encoding: "utf8",
    env: { ...process.env, CI: "true", NO_COLOR: "1", FORCE_COLOR: "0", WRANGLER_SEND_METRICS: "false", WRANGLER_LOG_PATH: path.join(dir, "logs") },
  });
  const out = `${r.stdout}\n${r.stderr}`.replace(/\x1b\[[0-9;]*m/g, "");
  assert.equal(r.status, 0, out);
  assert.match(out, /--dry-run: exiting now/, out);
  // Both wasm modules were bundled, from the linked folder.
  assert.deepEqual(fs.readdirSync(path.join(dir, "dist")).filter((f) => f.endsWith(".wasm")).length, 2);
  const warnings = out.split("\n").filter((l) => /WARNING|▲/.test(l));
  assert.deepEqual(warnings, [], out);
});
