// The API reference: scripts/apidocs.sh builds it with TypeDoc from the package's typings (any
// TypeDoc warning fails the build) into the folder the www page links to, and the link serves it.
// Needs ./scripts/build.sh (pkg/) and ./scripts/setup.sh (TypeDoc in this directory).
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { serveRepository } from "../../demo/serve.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

test("scripts/apidocs.sh builds the API reference of every entry, and the www page's link serves it", async () => {
  const log = execFileSync(path.join(root, "scripts/apidocs.sh"), { cwd: root, encoding: "utf8", stdio: "pipe" });
  assert.match(log, /API reference: www\/api\/index\.html/);
  const api = path.join(root, "www/api");
  const version = JSON.parse(fs.readFileSync(path.join(root, "pkg/package.json"), "utf8")).version;
  // One module per entry, named as it is imported, and the pages of what each one exports.
  const page = (f) => fs.readFileSync(path.join(api, f), "utf8");
  assert.match(page("index.html"), new RegExp(`<title>toolnexus-wasm ${version.replaceAll(".", "\\.")}</title>`));
  for (const [f, title] of [
    ["modules/toolnexus-wasm.html", "toolnexus-wasm"],
    ["modules/toolnexus-wasm_mcp.html", "toolnexus-wasm/mcp"],
    ["modules/toolnexus-wasm_web-storage.html", "toolnexus-wasm/web-storage"],
    ["modules/toolnexus-wasm_blobs.html", "toolnexus-wasm/blobs"],
    ["modules/toolnexus-wasm_agents.html", "toolnexus-wasm/agents"],
    ["modules/toolnexus-wasm_ui.html", "toolnexus-wasm/ui"],
    ["modules/toolnexus-wasm_in-process.html", "toolnexus-wasm/in-process"],
    ["modules/toolnexus-wasm_prompt-api.html", "toolnexus-wasm/prompt-api"],
    ["modules/toolnexus-wasm_workers-ai.html", "toolnexus-wasm/workers-ai"],
    ["modules/toolnexus-wasm_browser.html", "toolnexus-wasm/browser"],
    ["functions/toolnexus-wasm.createClient.html", "createClient"],
    ["interfaces/toolnexus-wasm.Client.html", "Client"],
    ["interfaces/toolnexus-wasm.ClientOptions.html", "ClientOptions"],
    ["classes/toolnexus-wasm.ToolnexusError.html", "ToolnexusError"],
    ["functions/toolnexus-wasm_mcp.mcpTools.html", "mcpTools"],
    ["functions/toolnexus-wasm_web-storage.localStorageStore.html", "localStorageStore"],
    ["functions/toolnexus-wasm_blobs.withBlobs.html", "withBlobs"],
    ["classes/toolnexus-wasm_blobs.BlobObject.html", "BlobObject"],
  ]) assert.match(page(f), new RegExp(`<title>${title} \\|`), f);
  // A member's doc comment made it through (ClientOptions documents maxTurns).
  assert.match(page("interfaces/toolnexus-wasm.ClientOptions.html"), /maxTurns/);

  const html = fs.readFileSync(path.join(root, "www/index.html"), "utf8");
  const href = html.match(/<a id="apiref" href="([^"]+)"/)?.[1];
  assert.ok(href, "www/index.html links to the API reference");
  const server = await serveRepository(0);
  try {
    const url = new URL(href, `http://127.0.0.1:${server.address().port}/www/index.html`);
    const res = await fetch(url);
    assert.equal(res.status, 200, url.href);
    assert.match(await res.text(), /toolnexus-wasm/);
  } finally {
    server.close();
  }
});
