// What the quick-start tests share: the blocks the READMEs mark for them, a clean copy of the
// repository to run them in, a shell, free ports and the scripted model.
//
// A README marks a block with an HTML comment on the line before its fence, invisible on GitHub
// and npm:   <!-- quickstart: <name> -->   then   ```lang … ```
// The tests take each block as written. The only edits they make are to what no test can run
// as is, each named where it is made: a placeholder path (`/path/to/toolnexus-wasm`), a fixed
// port (8080, 8787) that may be taken on a shared machine, and `npx wrangler@<version>`, which
// would download wrangler: the same version is already in tests/bundlers.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { execFileSync, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The marked blocks of a README: Map of name → { lang, code }. Names are unique per README. */
export function quickstarts(file) {
  const text = fs.readFileSync(file, "utf8");
  const blocks = new Map();
  const marker = /^<!-- quickstart: (\S+) -->\n(`{3,})(\S*)\n([\s\S]*?)\n\2$/gmu;
  for (const [, name, , lang, code] of text.matchAll(marker)) {
    if (blocks.has(name)) throw new Error(`${file}: two blocks named ${name}`);
    blocks.set(name, { lang, code: `${code}\n` });
  }
  // A marker not followed by a fence is a README edit that lost its block: say so, not "missing".
  const markers = [...text.matchAll(/<!-- quickstart: (\S+) -->/gu)].map((m) => m[1]);
  for (const name of markers) if (!blocks.has(name)) throw new Error(`${file}: the marker ${name} is not followed by a fenced block`);
  return blocks;
}

/** The block `name` of `blocks`, or a failure naming the README section that lost it. */
export function block(blocks, name, lang) {
  const b = blocks.get(name);
  if (!b) throw new Error(`no block marked <!-- quickstart: ${name} --> (found: ${[...blocks.keys()].join(", ")})`);
  if (lang && b.lang !== lang) throw new Error(`block ${name} is \`\`\`${b.lang}, expected \`\`\`${lang}`);
  return b.code;
}

/** `text` with `from` replaced by `to`, failing if `from` is not there (the README changed). */
export function substitute(text, from, to) {
  if (!text.includes(from)) throw new Error(`expected ${JSON.stringify(from)} in:\n${text}`);
  return text.split(from).join(to);
}

/**
 * A clean copy of the repository: the files git tracks (and new, not ignored ones), no
 * node_modules, no target/, no copies an earlier quick start left in examples/, plus the built
 * pkg/ (the quick starts begin once the build has made it): `<tmp>/toolnexus-wasm`, returned; its
 * parent is the test's to use and to remove (`removeCopy`).
 */
export function cleanCopy(prefix) {
  if (!fs.existsSync(path.join(repo, "pkg/package.json"))) throw new Error("pkg/ is not built: run ./scripts/build.sh");
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), `tnx-quickstart-${prefix}-`)), "toolnexus-wasm");
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: repo, encoding: "utf8" })
    .split("\0").filter((f) => f && fs.existsSync(path.join(repo, f)));
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.copyFileSync(path.join(repo, f), path.join(dir, f)); // keeps the mode: scripts stay executable
  }
  fs.cpSync(path.join(repo, "pkg"), path.join(dir, "pkg"), { recursive: true });
  return dir;
}

export function removeCopy(copy) {
  if (copy) fs.rmSync(path.dirname(copy), { recursive: true, force: true });
}

/**
 * Runs a shell block with bash -e in `cwd`; resolves to its stdout. npm works offline from an
 * empty cache: what a block installs must come from the clone, never from the registry.
 */
export function sh(code, cwd, env = {}) {
  return execFileSync("bash", ["-euo", "pipefail", "-c", code], {
    cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 120_000,
    env: { ...process.env, ...npmOffline(cwd), ...env },
  });
}

/** npm settings for a test: offline, a cache of its own, no audit or fund requests. */
export function npmOffline(dir) {
  return { npm_config_offline: "true", npm_config_cache: path.join(dir, ".npm-cache"), npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" };
}

/** A port no one listens on now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer().once("error", reject);
    s.listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

/**
 * Starts a long-running command of a block (a server) in `cwd` and waits until its output matches
 * `ready`. Resolves to { proc, output(), stop() }.
 */
export async function serve(command, args, { cwd, env = {}, ready, timeoutMs = 60_000 }) {
  const proc = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let out = "";
  proc.stdout.on("data", (d) => (out += d));
  proc.stderr.on("data", (d) => (out += d));
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const gone = new Promise((r) => proc.once("exit", r));
    try { process.kill(-proc.pid, "SIGTERM"); } catch {}   // its group: wrangler starts workerd
    const timer = setTimeout(() => { try { process.kill(-proc.pid, "SIGKILL"); } catch {} }, 5000);
    await gone;
    clearTimeout(timer);
  };
  const deadline = Date.now() + timeoutMs;
  while (!ready.test(out)) {
    if (proc.exitCode !== null) throw new Error(`${command} ${args.join(" ")} exited ${proc.exitCode}:\n${out}`);
    if (Date.now() > deadline) { await stop(); throw new Error(`${command} ${args.join(" ")}: not ready after ${timeoutMs} ms:\n${out}`); }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { proc, output: () => out, stop };
}

/** The scripted model (demo/scripted-model.mjs) on a free port: the provider of every test here. */
export async function scriptedModel() {
  const { startScriptedModel } = await import(path.join(repo, "demo/scripted-model.mjs"));
  return startScriptedModel();
}

/** Chromium through Playwright (tools/js), as tests/extension and tests/www.test.mjs use it. */
export async function chromium() {
  const { createRequire } = await import("node:module");
  return createRequire(path.join(repo, "tools/js/package.json"))("playwright-core").chromium;
}
export const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"];

/** The tarball `npm pack` makes of the clean copy's pkg/, installed in a new project folder `name`. */
export function projectWithTarball(copy, name = "project") {
  const project = path.join(path.dirname(copy), name);
  fs.mkdirSync(project);
  const tgz = sh("npm pack --silent --pack-destination ..", path.join(copy, "pkg")).trim().split("\n").at(-1);
  sh(`npm init -y >/dev/null && npm i ${JSON.stringify(path.join(copy, tgz))} >/dev/null`, project);
  return project;
}

const bundlers = path.join(repo, "tests/bundlers");
const WRANGLER = path.join(bundlers, "node_modules/.bin/wrangler");
const WRANGLER_VERSION = JSON.parse(fs.readFileSync(path.join(bundlers, "package.json"), "utf8")).devDependencies.wrangler;

/**
 * Runs a shell block that ends in `wrangler dev` until wrangler is ready; resolves to { port,
 * server } (`server.stop()` ends it). The edits: `npx wrangler@<version>` (or `npx wrangler`) →
 * the same version installed in tests/bundlers (npx would download it), and a free port for
 * 8787. `scratch` is a folder for wrangler's config and logs.
 */
export async function startWrangler(code, cwd, scratch) {
  const npx = /npx wrangler(?:@(\S+))? dev/.exec(code);
  if (!npx) throw new Error(`no \`npx wrangler dev\` in:\n${code}`);
  if (npx[1] && npx[1] !== WRANGLER_VERSION) throw new Error(`the README's wrangler@${npx[1]} is not the one the tests install (${WRANGLER_VERSION})`);
  const [port, inspector] = [await freePort(), await freePort()];
  const run = substitute(code, npx[0], `exec ${JSON.stringify(WRANGLER)} dev --ip 127.0.0.1 --port ${port} --inspector-port ${inspector}`);
  const home = fs.mkdtempSync(path.join(scratch, "home-"));
  const server = await serve("bash", ["-euo", "pipefail", "-c", run], {
    cwd, ready: /Ready on http/, timeoutMs: 90_000,
    env: { ...npmOffline(cwd), WRANGLER_SEND_METRICS: "false", XDG_CONFIG_HOME: home, WRANGLER_LOG_PATH: home, NO_COLOR: "1" },
  });
  try {
    if (/\bERROR\b|✘/u.test(server.output())) throw new Error(`wrangler started with errors:\n${server.output()}`);
    // esbuild's and wrangler's config warnings (a missing compatibility_date, the shipped glue's
    // duplicate keys) print as [WARNING]; `[wrangler:warn]` lines are about the network (Request.cf).
    if (/\[WARNING\]/u.test(server.output())) throw new Error(`wrangler started with warnings:\n${server.output()}`);
  } catch (e) {
    await server.stop();
    throw e;
  }
  return { port, server };
}
