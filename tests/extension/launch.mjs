// The MV3 example extension (examples/extension) with the built package and the scripted model,
// copied into a fresh folder and loaded into headless Chromium through Playwright: what every
// test of the example starts from (tests/extension/, tests/mcp/extension-input.test.mjs).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const { chromium } = createRequire(path.join(repo, "tools/js/package.json"))("playwright-core");

/** Resolves to `{ context, root, extDir }`; remove `root` once the context is closed. */
export async function launchExample(prefix, viewport = { width: 420, height: 640 }) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const extDir = path.join(root, "ext");
  fs.cpSync(path.join(repo, "examples/extension"), extDir, { recursive: true });
  fs.cpSync(path.join(repo, "pkg"), path.join(extDir, "pkg"), { recursive: true });
  fs.copyFileSync(path.join(repo, "demo/scripted-logic.mjs"), path.join(extDir, "scripted-logic.mjs"));
  fs.copyFileSync(path.join(repo, "demo/transcript.mjs"), path.join(extDir, "transcript.mjs")); // the side panel's (scripts/copy-pkg.sh)
  fs.mkdirSync(path.join(repo, "test-output"), { recursive: true });
  const context = await chromium.launchPersistentContext(path.join(root, "profile"), {
    executablePath: "/usr/bin/chromium", headless: true, ignoreDefaultArgs: ["--disable-extensions"], viewport,
    args: [`--disable-extensions-except=${extDir}`, `--load-extension=${extDir}`, "--no-sandbox", "--disable-gpu", "--disable-quic",
      "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"],
  });
  return { context, root, extDir };
}
