// @ts-check
// What `toolnexus-wasm/browser` does to a tab from the service worker: inject the page side
// (browser-page.js) into frames with chrome.scripting, join the frames' snapshots into one,
// navigate and wait for the load, take a screenshot, list and find tabs. Firefox's `browser.*`
// is used where it exists (its promises and `world: "MAIN"`), else `chrome.*`.
import { fail } from "./host.js";
import { pageAgent, pageToolsAgent } from "./browser-page.js";

/** The extension API root: Firefox's `browser`, else Chrome's `chrome`. */
export function api() {
  /** @type {any} */
  const g = globalThis;
  const root = g.browser?.scripting ? g.browser : g.chrome;
  if (!root?.scripting || !root?.tabs) {
    throw fail("bad_state", "toolnexus-wasm/browser runs in an extension's service worker (or page) with the \"scripting\" and \"tabs\" permissions: add them to the manifest");
  }
  return root;
}

/** An origin pattern as a RegExp: an origin ("https://shop.example"), `*` for any part ("https://*.example.com", "http://127.0.0.1:*"), or "<all_urls>" (any http or https origin). */
export function originPattern(/** @type {string} */ p) {
  if (p === "<all_urls>" || p === "*") return /^https?:\/\/[^/]+$/;
  const m = /^(\*|https?|file):\/\/([^/]*)\/?\*?$/.exec(p);
  if (!m) throw fail("bad_input", `browserTools: origin pattern ${JSON.stringify(p)} is not an origin like "https://shop.example", "https://*.example.com" or "http://127.0.0.1:*"`);
  const esc = (/** @type {string} */ s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
  const scheme = m[1] === "*" ? "https?" : m[1];
  let host = m[2];
  const port = /:(\d+|\*)$/.exec(host);
  if (port) host = host.slice(0, -port[0].length);
  const hostRe = host === "*" ? "[^/:]+" : host.startsWith("*.") ? `(?:[^/:]+\\.)?${esc(host.slice(2))}` : esc(host);
  const portRe = port ? (port[1] === "*" ? "(?::\\d+)?" : `:${port[1]}`) : "";
  return new RegExp(`^${scheme}:\\/\\/${hostRe}${portRe}$`);
}

/** `origin` of a URL, or "" for one without (about:blank, chrome://). */
export function originOf(/** @type {string | undefined} */ url) {
  try {
    const u = new URL(url ?? "");
    return /^(https?|file):$/.test(u.protocol) ? u.origin : "";
  } catch {
    return "";
  }
}

/**
 * Runs `func(...args)` in frames of tab `tabId` (`frameIds`, or every frame) and resolves to
 * `[{ frameId, result }]`. A tab that is gone, or a page the extension may not script (the
 * store, chrome://), is a `tab_unavailable` error naming the fix.
 */
export async function inject(/** @type {number} */ tabId, /** @type {number[] | "all"} */ frames, /** @type {Function} */ func, /** @type {any[]} */ args, world = "ISOLATED") {
  const target = frames === "all" ? { tabId, allFrames: true } : { tabId, frameIds: frames };
  try {
    return await api().scripting.executeScript({ target, func, args, ...(world === "MAIN" ? { world } : {}) });
  } catch (e) {
    const why = /** @type {Error} */ (e)?.message ?? String(e);
    throw fail("tab_unavailable", `cannot reach tab ${tabId} (${why}): the tab was closed or shows a page extensions may not script; navigate it to a web page, or switch to another tab`);
  }
}

/** One frame's page operation (`op` of pageAgent): its value, or a ToolnexusError with the page's code. */
export async function inFrame(/** @type {number} */ tabId, /** @type {number} */ frameId, /** @type {string} */ op, /** @type {any} */ input, /** @type {any} */ opts) {
  const [r] = await inject(tabId, [frameId], pageAgent, [op, input ?? {}, opts ?? {}]);
  const res = r?.result;
  if (!res) throw fail("tab_unavailable", `frame ${frameId} of tab ${tabId} did not answer: the page is loading or gone; take a new snapshot`);
  if (!res.ok) throw fail(res.code, res.message);
  return res.value;
}

/** `fNeK` → frame N, else the top frame (0). */
export function frameOfRef(/** @type {unknown} */ ref) {
  const m = typeof ref === "string" ? /^f(\d+)e\d+$/.exec(ref) : null;
  return m ? Number(m[1]) : 0;
}

/**
 * The snapshot of every frame the origin check allows, as one text: a subframe's lines go under
 * the top frame's `iframe … [frame=N]` line, their refs prefixed `fN`. A frame the check refuses
 * (or the extension may not script) shows as its iframe line with a note, nothing of its content.
 */
export async function snapshotTab(/** @type {number} */ tabId, /** @type {(origin: string) => boolean} */ allowed, /** @type {number} */ maxChars) {
  const results = await inject(tabId, "all", pageAgent, ["snapshot", {}, { maxChars }]);
  const frames = new Map();
  for (const r of results) if (r?.result?.ok) frames.set(r.frameId, r.result.value);
  // A frame named by its URL: the first of that URL not placed yet.
  const placed = new Set();
  const byUrl = (/** @type {string} */ url) => {
    for (const [id, f] of frames) if (id && !placed.has(id) && f.url === url) return placed.add(id), id;
    return undefined;
  };
  const top = frames.get(0);
  if (!top) throw fail("tab_unavailable", `tab ${tabId} gave no snapshot: it is loading or shows a page extensions may not script; wait_for the page or navigate`);
  const used = new Set([0]);
  const expand = (/** @type {string} */ text, /** @type {string} */ indent, /** @type {number} */ depth) => {
    const out = [];
    for (let line of text.split("\n")) {
      const m = /\[frame(?:=(\d+)|-src=(\S+))\]/.exec(line);
      const id = m ? (m[1] ? Number(m[1]) : byUrl(decodeURI(m[2]))) : undefined;
      if (m) line = line.replace(m[0], id === undefined ? "" : `[frame=${id}]`).trimEnd();
      out.push(indent + line);
      if (!m) continue;
      const f = frames.get(id);
      const pad = indent + line.match(/^\s*/)[0] + "  ";
      if (id === undefined || !f) out.push(`${pad}- (its content is not available to the extension)`);
      else if (!allowed(originOf(f.url))) out.push(`${pad}- (content not shown: ${originOf(f.url) || "this origin"} is not on the allow-list)`);
      else if (depth < 4 && !used.has(id)) {
        used.add(id);
        out.push(...expand(f.text.replace(/\[ref=e(\d+)\]/g, `[ref=f${id}e$1]`), pad, depth + 1));
      }
    }
    return out;
  };
  const lines = expand(top.text, "", 0);
  // Frames the top document could not place (no runtime.getFrameId): listed after it.
  for (const [id, f] of frames) {
    if (used.has(id) || !allowed(originOf(f.url))) continue;
    lines.push(`- iframe ${JSON.stringify(f.url)} [frame=${id}]`, ...f.text.replace(/\[ref=e(\d+)\]/g, `[ref=f${id}e$1]`).split("\n").map((l) => `  ${l}`));
  }
  let text = lines.join("\n");
  if (text.length > maxChars) text = `${text.slice(0, maxChars)}\n- (cut at ${maxChars} characters: read_text or scroll for the rest)`;
  return { title: top.title, url: top.url, text };
}

/** The tools a page offers (WebMCP), per frame: `[{ frameId, origin, tools }]`. */
export async function listPageTools(/** @type {number} */ tabId) {
  let results = [];
  try {
    results = await inject(tabId, "all", pageToolsAgent, ["list", {}], "MAIN");
  } catch {
    return []; // a page that cannot be scripted offers no tools
  }
  return results.filter((r) => r?.result?.ok && r.result.value.tools.length).map((r) => ({ frameId: r.frameId, ...r.result.value }));
}

/** Runs page tool `name` in frame `frameId` (the page's main world). */
export async function callPageTool(/** @type {number} */ tabId, /** @type {number} */ frameId, /** @type {string} */ name, /** @type {unknown} */ input) {
  const [r] = await inject(tabId, [frameId], pageToolsAgent, ["call", { name, input }], "MAIN");
  const res = r?.result;
  if (!res?.ok) throw fail(res?.code ?? "page_tool_failed", res?.message ?? "the page did not answer");
  return res;
}

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/** Waits until tab `tabId` has loaded (`status: "complete"`), `changed` (its URL differs from `from`) when given; at most `ms`. */
export async function loaded(/** @type {number} */ tabId, { from = undefined, ms = 15_000 } = {}) {
  const end = Date.now() + ms;
  await sleep(50); // the navigation starts after tabs.update resolves
  for (;;) {
    const tab = await api().tabs.get(tabId).catch(() => null);
    if (!tab) throw fail("tab_unavailable", `tab ${tabId} was closed: list_tabs and switch to another`);
    if (tab.status === "complete" && (from === undefined || tab.url !== from)) return tab;
    if (Date.now() > end) return tab; // slow pages: the model takes a snapshot and sees
    await sleep(100);
  }
}

/** The visible part of tab `tabId` as a data: URL (the tab is brought to the front of its window first). */
export async function capture(/** @type {number} */ tabId, /** @type {{ format?: string, quality?: number }} */ opts) {
  const tabs = api().tabs;
  let tab = await tabs.get(tabId);
  if (!tab.active) {
    await tabs.update(tabId, { active: true });
    await sleep(150);
    tab = await tabs.get(tabId);
  }
  const format = opts?.format === "jpeg" ? "jpeg" : "png";
  try {
    return await tabs.captureVisibleTab(tab.windowId, format === "jpeg" ? { format, quality: opts?.quality ?? 70 } : { format });
  } catch (e) {
    throw fail("tab_unavailable", `the screenshot failed (${/** @type {Error} */ (e)?.message ?? e}): the extension needs host permission for the page (or "activeTab" after a click on its button)`);
  }
}
