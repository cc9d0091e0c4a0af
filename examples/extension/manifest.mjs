// The per-browser manifest step. manifest.json is Chrome's (load the folder unpacked as it is);
// Firefox's is derived from it, so the two never drift apart:
//   node manifest.mjs firefox <dir>   writes <dir>/manifest.json (a copy of this folder, say)
//   node manifest.mjs firefox         prints it
// Every other file is shared: the scripts use `chrome.*`, which Firefox provides as well.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

/** The add-on id Firefox keys storage and the moz-extension:// origin on; a temporary install needs one too. */
export const GECKO_ID = "toolnexus-agent@example.org";

export function chromeManifest() {
  return JSON.parse(fs.readFileSync(path.join(here, "manifest.json"), "utf8"));
}

/**
 * Firefox MV3 has no extension service worker: the same module runs as an event page
 * (`background.scripts`), which Firefox suspends when idle, as Chrome stops its worker. It has a
 * sidebar (`sidebar_action`) where Chrome has a side panel, `options_ui` for `options_page`, and
 * needs an add-on id. The CSP is the same: `'wasm-unsafe-eval'` is what WebAssembly needs in both.
 */
export function firefoxManifest(chrome = chromeManifest()) {
  const { background, side_panel, options_page, ...rest } = chrome;
  return {
    ...rest,
    description: chrome.description.replace("side panel", "sidebar"),
    background: { scripts: [background.service_worker], type: background.type },
    sidebar_action: { default_panel: side_panel.default_path, default_title: chrome.action?.default_title },
    options_ui: { page: options_page, open_in_tab: true },
    permissions: chrome.permissions.filter((p) => p !== "sidePanel"),
    browser_specific_settings: { gecko: { id: GECKO_ID, strict_min_version: "128.0" } },
  };
}

const manifests = { chrome: chromeManifest, firefox: () => firefoxManifest() };

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [browser, dir] = process.argv.slice(2);
  if (!manifests[browser]) {
    console.error(`usage: node manifest.mjs <${Object.keys(manifests).join("|")}> [dir]`);
    process.exit(2);
  }
  const text = `${JSON.stringify(manifests[browser](), null, 2)}\n`;
  if (dir) fs.writeFileSync(path.join(dir, "manifest.json"), text);
  else process.stdout.write(text);
}
