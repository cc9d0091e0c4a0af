// Every entry under every bundler, from a tarball made with `npm pack`: esbuild, Vite (current
// and 6, whose dev server is also tried), webpack 5 (browser bundles run in headless Chromium),
// and wrangler (`deploy --dry-run` bundles the Worker, which then runs in workerd through
// Miniflare). Each loads the wasm, runs a relay round trip, iterates a stream, and checks the
// error class, through the root entry and the `toolnexus-wasm/full` alias (app/app.js).
// Needs ./scripts/build.sh (pkg/) and ./scripts/setup.sh (this directory's node_modules).
import test, { before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const scratch = path.join(here, ".scratch");
const tools = createRequire(path.join(root, "tools/js/package.json"));
const local = createRequire(path.join(here, "package.json"));
const { chromium } = tools("playwright-core");

let browser;
const servers = [];

before(async () => {
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.mkdirSync(scratch, { recursive: true });
  // The package as a user gets it: packed, then installed into the scratch projects' root.
  const tgz = execFileSync("npm", ["pack", path.join(root, "pkg"), "--pack-destination", scratch, "--silent"], { encoding: "utf8" }).trim().split("\n").pop();
  fs.writeFileSync(path.join(scratch, "package.json"), '{ "private": true }\n');
  execFileSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--offline", "--loglevel=error", `./${tgz}`], { cwd: scratch });
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: ["--no-sandbox"] });
});

after(async () => {
  await browser?.close();
  for (const s of servers) s.close();
});

function project(name) {
  const dir = path.join(scratch, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.cpSync(path.join(here, "app"), dir, { recursive: true });
  fs.copyFileSync(path.join(root, "demo/scripted-logic.mjs"), path.join(dir, "scripted-logic.mjs"));
  return dir;
}

const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm" };
async function serve(dir) {
  const server = http.createServer((req, res) => {
    const file = path.join(dir, decodeURIComponent(new URL(req.url, "http://x").pathname));
    const f = fs.existsSync(file) && fs.statSync(file).isDirectory() ? path.join(file, "index.html") : file;
    if (!f.startsWith(dir) || !fs.existsSync(f)) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": types[path.extname(f)] ?? "application/octet-stream" }).end(fs.readFileSync(f));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  servers.push(server);
  return `http://127.0.0.1:${server.address().port}/`;
}

function expectRoundTrip(r) {
  assert.equal(r.error, undefined, r.error);
  for (const entry of ["root", "full"]) {
    const o = r[entry];
    assert.deepEqual([o.halted, o.done, o.code], ["pending", "done", "bad_input"], `${entry}: ${JSON.stringify(o)}`);
    assert.match(o.text, /clicked #buy/, entry);
    assert.match(o.events, /^text:.+ usage done$/, `${entry}: ${o.events}`);
  }
}

async function inChromium(url) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  try {
    await page.goto(url);
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 30000 });
    return await page.evaluate(() => window.__result);
  } catch (e) {
    throw new Error(`${e.message}\npage errors: ${errors.join("\n")}`);
  } finally {
    await page.close();
  }
}

test("esbuild: the browser bundle (the .wasm through the file loader) in Chromium", async () => {
  const dir = project("esbuild");
  await tools("esbuild").build({
    entryPoints: [path.join(dir, "main-esbuild.js")], bundle: true, format: "esm", platform: "browser",
    outfile: path.join(dir, "dist/main.js"), loader: { ".wasm": "file" }, logLevel: "error",
  });
  fs.writeFileSync(path.join(dir, "dist/index.html"), fs.readFileSync(path.join(dir, "index.html"), "utf8"));
  expectRoundTrip(await inChromium(await serve(path.join(dir, "dist"))));
});

for (const [label, pkgName] of [["current", "vite"], ["6", "vite6"]]) {
  test(`Vite ${label}: the production build in Chromium`, async () => {
    const dir = project(`vite-${pkgName}`);
    const { build } = await import(local.resolve(pkgName));
    await build({ root: dir, logLevel: "error", build: { outDir: path.join(dir, "dist"), target: "es2022" } });
    expectRoundTrip(await inChromium(await serve(path.join(dir, "dist"))));
  });
}

test("Vite 6: the dev server in Chromium (optimizeDeps.exclude, as the README says)", async () => {
  const dir = project("vite-dev");
  const { createServer } = await import(local.resolve("vite6"));
  const server = await createServer({
    root: dir, logLevel: "error", server: { port: 0, host: "127.0.0.1" },
    optimizeDeps: { exclude: ["toolnexus-wasm"] },
  });
  await server.listen();
  try {
    expectRoundTrip(await inChromium(server.resolvedUrls.local[0]));
  } finally {
    await server.close();
  }
});

test("webpack 5: the browser bundle in Chromium", async () => {
  const dir = project("webpack");
  const webpack = local("webpack");
  const stats = await new Promise((resolve, reject) => webpack({
    mode: "production", context: dir, entry: "./main.js", target: "web",
    output: { path: path.join(dir, "dist"), filename: "main.js", module: true, chunkFormat: "module" },
    experiments: { outputModule: true }, performance: { hints: false },
  }, (err, s) => (err ? reject(err) : resolve(s))));
  assert.ok(!stats.hasErrors(), stats.toString("errors-only"));
  fs.writeFileSync(path.join(dir, "dist/index.html"), fs.readFileSync(path.join(dir, "index.html"), "utf8").replace("./main.js", "./main.js"));
  expectRoundTrip(await inChromium(await serve(path.join(dir, "dist"))));
});

test("wrangler: deploy --dry-run bundles the Worker (workerd entry), which runs in workerd through Miniflare", async () => {
  const dir = project("wrangler");
  fs.writeFileSync(path.join(dir, "wrangler.toml"), 'name = "toolnexus-bundler-test"\nmain = "worker.js"\ncompatibility_date = "2026-01-01"\n');
  const wrangler = path.join(path.dirname(local.resolve("wrangler/package.json")), "bin/wrangler.js");
  execFileSync(process.execPath, [wrangler, "deploy", "--dry-run", "--outdir", "dist"], {
    cwd: dir, stdio: "pipe", env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", WRANGLER_LOG_PATH: path.join(dir, "logs") },
  });
  const { Miniflare } = tools("miniflare");
  const mf = new Miniflare({
    modules: true, scriptPath: path.join(dir, "dist/worker.js"), compatibilityDate: "2026-01-01",
    modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }],
  });
  try {
    const res = await mf.dispatchFetch("http://worker/");
    expectRoundTrip(await res.json());
  } finally {
    await mf.dispose();
  }
});
