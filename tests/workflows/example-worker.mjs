// examples/workflow as its README runs it (installed by name and bundled by wrangler:
// ../workerd/bundle-example.mjs), in Miniflare with the bindings its wrangler.toml declares: for tests/workflows/example.test.mjs
// and the extension's backend test (tests/extension/workflow.test.mjs).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { bundleExample, workerModules } from "../workerd/bundle-example.mjs";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const example = path.join(repo, "examples/workflow");
const { Miniflare } = createRequire(path.join(repo, "tools/js/package.json"))("miniflare");

/** The example bundled (worker.mjs and its wasm modules) in a new temporary folder; returns its path. */
export function copyExample() {
  return bundleExample("workflow", fs.mkdtempSync(path.join(os.tmpdir(), "tnx-wf-example-")));
}

/** The bindings wrangler.toml declares: read from it, so the test runs what a stranger deploys. */
function declared() {
  const toml = fs.readFileSync(path.join(example, "wrangler.toml"), "utf8");
  const wf = /^\[\[workflows\]\]\nname = "([^"]+)"\nbinding = "([^"]+)"\nclass_name = "([^"]+)"$/m.exec(toml);
  const kv = /^\[\[kv_namespaces\]\]\nbinding = "([^"]+)"$/m.exec(toml);
  const date = /^compatibility_date = "([^"]+)"$/m.exec(toml);
  const vars = Object.fromEntries([...toml.matchAll(/^([A-Z_]+) = "([^"]*)"$/gm)].map((m) => [m[1], m[2]]));
  if (!wf || !kv || !date) throw new Error("examples/workflow/wrangler.toml: no [[workflows]], [[kv_namespaces]] or compatibility_date of the expected shape");
  if (/nodejs_compat/.test(toml)) throw new Error("the example needs no nodejs_compat");
  return { workflows: { [wf[2]]: { name: wf[1], className: wf[3] } }, kvNamespaces: [kv[1]], compatibilityDate: date[1], vars };
}

/**
 * A Miniflare running the copy at `root`, its Workflow and KV state persisted under `dir` (a
 * new one on the same `dir` picks them up), with `bindings` over the declared vars; `extra` is
 * more Miniflare options (`port: 0` to serve on a local port).
 */
export function exampleRuntime(root, dir, bindings = {}, extra = {}) {
  const { vars, ...d } = declared();
  return new Miniflare({
    ...workerModules(root),
    ...d,
    workflowsPersist: path.join(dir, "wf"), kvPersist: path.join(dir, "kv"), durableObjectsPersist: path.join(dir, "do"),
    bindings: { ...vars, ...bindings },
    ...extra,
  });
}
