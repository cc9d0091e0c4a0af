// examples/worker-proxy's README, as written, under `wrangler dev` (workerd): `npm install` links
// the clone's pkg/ (the example imports toolnexus-wasm by name), its committed wrangler.toml, and
// the keys in .dev.vars as the README says; then an OpenAI chat request answered through the
// proxy by the scripted model (OPENAI_BASE_URL), and the model list wrangler.toml declares.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { block, cleanCopy, quickstarts, removeCopy, scriptedModel, startWrangler } from "./readme.mjs";

let copy, model, server;
before(async () => { copy = cleanCopy("proxy"); model = await scriptedModel(); });
after(async () => {
  await server?.stop();
  await model?.close();
  removeCopy(copy);
});

test("examples/worker-proxy/README.md: npm install and wrangler dev; the proxy answers an OpenAI chat request", async () => {
  const code = block(quickstarts(path.join(copy, "examples/worker-proxy/README.md")), "proxy", "bash");
  const example = path.join(copy, "examples/worker-proxy");
  // The README: the keys in .dev.vars beside wrangler.toml (here the base URL too: the scripted model).
  fs.writeFileSync(path.join(example, ".dev.vars"), `OPENAI_API_KEY=sk-quickstart\nOPENAI_BASE_URL=${model.url}/v1\n`);
  let port;
  ({ port, server } = await startWrangler(code, copy, path.dirname(copy)));
  assert.ok(fs.existsSync(path.join(example, "node_modules/toolnexus-wasm/package.json")), "npm install linked the package");
  const models = await (await fetch(`http://127.0.0.1:${port}/v1/models`)).json();
  const declared = /^MODELS = "([^"]+)"$/m.exec(fs.readFileSync(path.join(example, "wrangler.toml"), "utf8"))[1].split(",");
  assert.deepEqual(models.data.map((m) => m.id), declared);
  const r = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
    method: "POST", body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hello" }] }),
  });
  const body = await r.json();
  assert.equal(r.status, 200, JSON.stringify(body));
  assert.match(body.choices[0].message.content, /^Hello! I'm the scripted model/);
  assert.equal(model.requests.at(-1).headers.authorization, "Bearer sk-quickstart");
});
