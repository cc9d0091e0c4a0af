// A small W3C WebDriver client for geckodriver + the system Firefox (no npm dependency): enough
// to install a temporary add-on, open tabs, run scripts, click, read the DOM and take screenshots.
// It fails loudly when Firefox or geckodriver is missing: scripts/setup.sh --browser installs both.
import { spawn, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const FIREFOX = process.env.FIREFOX_BIN ?? "/usr/bin/firefox-esr";
export const GECKODRIVER = process.env.GECKODRIVER ?? "geckodriver";

/** `Mozilla Firefox 153.8.0esr` — also a loud failure when the binary is not there. */
export function firefoxVersion() {
  if (!fs.existsSync(FIREFOX)) throw new Error(`${FIREFOX} is missing: run ./scripts/setup.sh --browser`);
  return execFileSync(FIREFOX, ["--version"], { encoding: "utf8" }).trim();
}

/**
 * Starts geckodriver on an ephemeral port and one Firefox session. `prefs` go into the fresh
 * profile; `systemAccess` lets `chrome()` run privileged script (Firefox's own internals), which
 * the tests use only to suspend an add-on's background page the way Firefox does when idle.
 */
export async function startFirefox({ prefs = {}, systemAccess = false, width = 900, height = 700 } = {}) {
  firefoxVersion();
  const args = ["--port", "0", "--websocket-port", "0"]; // "Listening on" is logged at info, the default
  if (systemAccess) args.push("--allow-system-access");
  const driver = spawn(GECKODRIVER, args, { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`geckodriver did not start:\n${log}`)), 15_000);
    const onData = (d) => {
      log = (log + d).slice(-20_000); // drained, or a full pipe would stall Firefox's console output
      const m = /Listening on (?:127\.0\.0\.1|\[::1\]|localhost):(\d+)/.exec(log);
      if (m) { clearTimeout(timer); resolve(Number(m[1])); }
    };
    driver.stdout.on("data", onData);
    driver.stderr.on("data", onData);
    driver.on("error", (e) => { clearTimeout(timer); reject(new Error(`cannot run ${GECKODRIVER} (run ./scripts/setup.sh --browser): ${e.message}`)); });
    driver.on("exit", (code) => { clearTimeout(timer); reject(new Error(`geckodriver exited (${code}):\n${log}`)); });
  });
  const base = `http://127.0.0.1:${port}`;
  const capabilities = { alwaysMatch: {
    browserName: "firefox",
    "moz:firefoxOptions": { binary: FIREFOX, args: ["-headless", `--width=${width}`, `--height=${height}`], prefs },
  } };
  const created = await wd(base, "POST", "/session", { capabilities });
  const session = new Session(base, created.sessionId, created.capabilities);
  session.driver = driver;
  return session;
}

async function wd(base, method, route, body) {
  const res = await fetch(base + route, {
    method, headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok || json.value?.error) {
    const v = json.value ?? {};
    throw new Error(`WebDriver ${method} ${route}: ${v.error ?? res.status}: ${v.message ?? JSON.stringify(json)}`);
  }
  return json.value;
}

const ELEMENT = "element-6066-11e4-a52e-4f735466cecf"; // the W3C web element identifier

class Session {
  constructor(base, id, capabilities) {
    this.base = base;
    this.id = id;
    this.capabilities = capabilities;
  }
  cmd(method, route, body) { return wd(this.base, method, `/session/${this.id}${route}`, body); }
  goto(url) { return this.cmd("POST", "/url", { url }); }
  execute(script, ...args) { return this.cmd("POST", "/execute/sync", { script, args }); }
  /** `script` is an async function body; its return value (awaited) comes back. */
  run(script, ...args) {
    return this.cmd("POST", "/execute/async", {
      script: `const done = arguments[arguments.length - 1];
        (async (...args) => { ${script} })(...Array.from(arguments).slice(0, -1))
          .then((value) => done({ value }), (e) => done({ error: String(e?.stack ?? e) }));`, args,
    }).then((r) => { if (r?.error) throw new Error(r.error); return r?.value; });
  }
  async find(css) { return (await this.cmd("POST", "/element", { using: "css selector", value: css }))[ELEMENT]; }
  async click(css) {
    try {
      return await this.cmd("POST", `/element/${await this.find(css)}/click`, {});
    } catch (e) { // re-rendered between find and click: once more, with the new element
      if (!/stale element/.test(e.message)) throw e;
      return this.cmd("POST", `/element/${await this.find(css)}/click`, {});
    }
  }
  async type(css, text) { return this.cmd("POST", `/element/${await this.find(css)}/value`, { text }); }
  text(css) { return this.execute("return document.querySelector(arguments[0])?.textContent ?? null", css); }
  /** Polls `predicate` (a script returning a boolean) until it holds; fails with `describe()`'s output. */
  async waitFor(predicate, { timeout = 10_000, describe, args = [] } = {}) {
    const end = Date.now() + timeout;
    for (;;) {
      if (await this.execute(predicate, ...args)) return;
      if (Date.now() > end) throw new Error(`timed out waiting for: ${predicate}${describe ? `\n${await describe()}` : ""}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  async newTab() { return (await this.cmd("POST", "/window/new", { type: "tab" })).handle; }
  async newWindow() { return (await this.cmd("POST", "/window/new", { type: "window" })).handle; }
  switchTo(handle) { return this.cmd("POST", "/window", { handle }); }
  handle() { return this.cmd("GET", "/window"); }
  async screenshot(file) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, Buffer.from(await this.cmd("GET", "/screenshot"), "base64"));
  }
  /** Installs an unpacked add-on folder (or .xpi) the way about:debugging does: temporary, no signature. */
  installTemporaryAddon(dir) { return this.cmd("POST", "/moz/addon/install", { path: dir, temporary: true }); }
  /** Runs `script` (an async function body) with system privileges, then returns to content. */
  async chrome(script, ...args) {
    await this.cmd("POST", "/moz/context", { context: "chrome" });
    try { return await this.run(script, ...args); } finally { await this.cmd("POST", "/moz/context", { context: "content" }); }
  }
  async quit() {
    try { await this.cmd("DELETE", ""); } catch { /* the browser may already be gone */ }
    this.driver?.kill();
  }
}

export function tempDir(prefix) { return fs.mkdtempSync(path.join(os.tmpdir(), prefix)); }
