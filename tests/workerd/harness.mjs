// What every workerd test sets up the same way: a temporary folder holding a copy of the built
// package and the test's Worker (as worker.mjs), and the Miniflare options that load it as
// ES modules with the wasm compiled, at the compatibility date the package is tested with.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const here = path.dirname(fileURLToPath(import.meta.url));
export const { Miniflare } = createRequire(path.resolve(here, "../../tools/js/package.json"))("miniflare");

/** A fresh folder with `pkg/` and `worker` (a file beside this one) copied in as worker.mjs. */
export function workerRoot(prefix, worker) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.cpSync(path.resolve(here, "../../pkg"), path.join(root, "pkg"), { recursive: true });
  fs.copyFileSync(path.join(here, worker), path.join(root, "worker.mjs"));
  return root;
}

/** Miniflare's options for the Worker in `root`: spread first, then the test's bindings. */
export const moduleOptions = (root) => ({
  modules: true, scriptPath: path.join(root, "worker.mjs"), modulesRoot: root,
  modulesRules: [{ type: "ESModule", include: ["**/*.js", "**/*.mjs"] }, { type: "CompiledWasm", include: ["**/*.wasm"] }],
  compatibilityDate: "2026-04-01",
});
