// The Workflows entry's typings against Cloudflare's own (@cloudflare/workers-types): a Workflow's
// `step: WorkflowStep` from "cloudflare:workers" is accepted by runInWorkflow, and answerEvent's
// result by `instance.sendEvent`, under strict TypeScript (cf-types/). A typing of ours that is
// stricter than Cloudflare's step (a generic `do<T>`) fails here.
import test from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

test("a Workflow typed by @cloudflare/workers-types passes its WorkflowStep to runInWorkflow", () => {
  const tsc = path.join(here, "node_modules/typescript/bin/tsc");
  const r = spawnSync(process.execPath, [tsc, "-p", path.join(here, "cf-types/tsconfig.json")], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
