// Builds www/chat/app.js from app.src.jsx with esbuild: React, @ai-sdk/react and ai from
// tests/ui/node_modules (./scripts/setup.sh --test installs them); the package and the scripted
// model stay the files the page loads (../../pkg, ../../demo), as the other demo page loads them.
//   node www/chat/build.mjs
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");

export async function build() {
  const esbuild = createRequire(path.join(repo, "tools/js/package.json"))("esbuild");
  await esbuild.build({
    entryPoints: [path.join(here, "app.src.jsx")], outfile: path.join(here, "app.js"), bundle: true, minify: true, format: "esm", logLevel: "warning",
    jsx: "automatic", define: { "process.env.NODE_ENV": '"production"' }, nodePaths: [path.join(repo, "tests/ui/node_modules")],
    external: ["../../pkg/*", "../../demo/*"],
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await build();
