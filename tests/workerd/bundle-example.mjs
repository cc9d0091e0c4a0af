// A Worker example (examples/worker, workflow, worker-proxy) as wrangler deploys it: the example
// imports toolnexus-wasm by name from its package.json (`file:../../pkg`), so it is bundled the
// way its README runs it (`npm install`, then wrangler; here `wrangler deploy --dry-run`, the
// bundle without the upload), for the tests that run it in Miniflare, which resolves no package
// names itself. Needs a built pkg/ and tests/bundlers' wrangler (./scripts/setup.sh --test).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const wrangler = path.join(path.dirname(createRequire(path.join(repo, "tests/bundlers/package.json")).resolve("wrangler/package.json")), "bin/wrangler.js");

/**
 * Bundles `examples/<name>` into `out` (created if missing): `out/worker.mjs` and the wasm modules
 * it imports. The example is copied into a scratch tree under `out` laid out as the repository
 * is (examples/<name>, pkg, demo), installed there with `npm install` (offline: a `file:` link),
 * then bundled. Returns `out`; the Miniflare options to load it are `workerModules(out)`.
 */
export function bundleExample(name, out) {
  const tree = path.join(out, ".tree");
  const example = path.join(tree, "examples", name);
  fs.mkdirSync(example, { recursive: true });
  fs.cpSync(path.join(repo, "examples", name), example, {
    recursive: true, filter: (f) => !/[\\/](node_modules|\.wrangler|dist|package-lock\.json)$/.test(f),
  });
  fs.cpSync(path.join(repo, "pkg"), path.join(tree, "pkg"), { recursive: true });
  fs.mkdirSync(path.join(tree, "demo"));
  fs.copyFileSync(path.join(repo, "demo/scripted-logic.mjs"), path.join(tree, "demo/scripted-logic.mjs"));
  const env = {
    ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", NO_COLOR: "1",
    WRANGLER_LOG_PATH: path.join(tree, "logs"), XDG_CONFIG_HOME: path.join(tree, "home"),
    npm_config_offline: "true", npm_config_cache: path.join(tree, ".npm-cache"), npm_config_audit: "false", npm_config_fund: "false",
  };
  execFileSync("npm", ["install", "--loglevel=error"], { cwd: example, env, stdio: "pipe" });
  const dist = path.join(tree, "dist");
  execFileSync(process.execPath, [wrangler, "deploy", "--dry-run", "--outdir", dist], { cwd: example, env, stdio: "pipe" });
  for (const f of fs.readdirSync(dist)) {
    if (f.endsWith(".map") || f === "README.md") continue;
    // worker.js → worker.mjs: what the tests' own wrappers import (tests/workflows/slow-first-publish.mjs).
    fs.copyFileSync(path.join(dist, f), path.join(out, f === "worker.js" ? "worker.mjs" : f));
  }
  fs.rmSync(tree, { recursive: true, force: true });
  return out;
}

/** Miniflare's module options for a bundle from bundleExample. */
export const workerModules = (out) => ({
  modules: true, scriptPath: path.join(out, "worker.mjs"), modulesRoot: out,
  modulesRules: [{ type: "ESModule", include: ["**/*.js", "**/*.mjs"] }, { type: "CompiledWasm", include: ["**/*.wasm"] }],
});
