// pkg-template/README.md's Workers AI example (the `workers-ai.mjs` block) as pasted, in workerd
// (Miniflare), its `env.AI` a binding stand-in replaying answers recorded for Llama 3.3
// (workers-ai-fixtures.mjs): it halts on the relay call `click` after running get_weather. Only
// the bare specifiers are pointed at the package's files, as wrangler's bundler resolves them
// (toolnexus-wasm → workerd.js under the `workerd` condition).
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Miniflare, moduleOptions, workerRoot } from "./harness.mjs";
import { block, quickstarts } from "../quickstart/readme.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
let root, ai;
before(() => {
  root = workerRoot("tnx-workers-ai-readme-", "workers-ai-worker.mjs");
  const code = block(quickstarts(path.resolve(here, "../../pkg-template/README.md")), "workers-ai.mjs", "js");
  fs.writeFileSync(path.join(root, "worker.mjs"), code.replace('from "toolnexus-wasm"', 'from "./pkg/workerd.js"').replace('from "toolnexus-wasm/workers-ai"', 'from "./pkg/workers-ai.js"'));
  // The binding: a wrapped binding, one module (the fixtures and a default export giving the stand-in).
  ai = `${fs.readFileSync(path.join(here, "workers-ai-fixtures.mjs"), "utf8")}\nexport default function () { return recordedAI("llama-3.3"); }\n`;
});
after(() => fs.rmSync(root, { recursive: true, force: true }));

test("pkg-template/README.md: the Workers AI Worker runs get_weather on the binding and halts on click", async () => {
  const opts = moduleOptions(root);
  const mf = new Miniflare({
    workers: [
      { ...opts, name: "main", wrappedBindings: { AI: { scriptName: "ai" } } },
      { name: "ai", modules: true, script: ai },
    ],
  });
  try {
    const res = await mf.dispatchFetch("http://worker/", { method: "POST", body: "Weather in London, then buy." });
    const body = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(body.status, "pending");
    assert.deepEqual(body.calls.map((c) => [c.name, c.input]), [["click", { selector: "#buy" }]]);
  } finally { await mf.dispose(); }
});
