// `toolnexus-wasm/browser`: ready tab tools for an MV3 extension (browser.js). Its own subpath:
// JS only, loaded only by an extension that acts in tabs.
/**
 * Tab tools for an extension's service worker: a page snapshot with a ref per interactive
 * element, actions by ref (click, type, select, keys, hover, scroll), navigation, waits, text,
 * screenshots, tabs, and the page's own WebMCP tools, as relay tools whose calls the kit runs in
 * the tab with `chrome.scripting` / `chrome.tabs` (Firefox: `browser.*`). Acting tools ask the
 * person first, only allowed origins are touched, page text reaches the model fenced as
 * untrusted data, and each action runs once even when the service worker stops mid-way.
 * @example
 * ```js
 * import { createClient, createToolkit } from "toolnexus-wasm";
 * import { browserTools } from "toolnexus-wasm/browser";
 * const browser = browserTools({ activeTab: true }, { origins: ["https://shop.example"] });
 * const client = createClient({ style: "openai", model: "gpt-4o-mini", apiKey: "sk-...",
 *   waitFor: browser.waitFor({ approve: async (asks) => confirm(asks.map((a) => a.name).join(", ")) }) });
 * const toolkit = createToolkit([...browser.tools, ...(await browser.pageTools())]);
 * ```
 * @module toolnexus-wasm/browser
 */
import type { Answer, Part, RelayCall, Suspension, Tool } from "./index.js";

/** Where the kit acts: one tab by id, or the active tab of the last focused window at each call. */
export type BrowserTarget = { tabId: number } | { activeTab: true };

/** The kit's tools by short name (their relay names carry `prefix`, default `browser_`). */
export type BrowserToolName =
  | "snapshot" | "click" | "type" | "select_option" | "press_key" | "hover" | "scroll" | "navigate" | "go_back"
  | "wait_for" | "read_text" | "screenshot" | "list_tabs" | "switch_tab";

/** Where a call would act, as an approval rule and the person see it. */
export interface BrowserCallInfo {
  /** The tab's top origin (`https://shop.example`), "" for a page without one. */
  origin: string;
  url: string;
}

/** Whether a tool asks before each call: `true`, `false`, or a function of the call's input. */
export type BrowserApproval = boolean | ((input: { [key: string]: unknown }, info: BrowserCallInfo) => boolean | Promise<boolean>);

export interface BrowserToolsOptions {
  /** Put before each tool's name (default `"browser_"`: `browser_click`); up to 20 of [A-Za-z0-9_]. */
  prefix?: string;
  /**
   * The origins the kit may read or act on: origins (`"https://shop.example"`), patterns with
   * `*` (`"https://*.example.com"`, `"http://127.0.0.1:*"`) or `"<all_urls>"` (any http(s) page,
   * the default). A call on another origin, a navigation to one, or a ref into a frame of one
   * is refused (`origin_not_allowed`); such frames are left out of snapshots.
   */
  origins?: string[];
  /** Origins where nothing asks first (your own app's). */
  trustedOrigins?: string[];
  /**
   * Per tool, whether it asks before each call, over the defaults: click, type, select_option,
   * press_key, navigate, go_back and switch_tab ask; the rest do not. `webmcp` is the page's
   * tools' rule (default: those without `readOnlyHint` ask).
   */
  approval?: Partial<Record<BrowserToolName | "webmcp", BrowserApproval>>;
  /** Offer list_tabs and switch_tab (default false: the agent sees only its tab). */
  tabs?: boolean;
  /** List the page's own tools (WebMCP) in `pageTools()` (default true; absent pages offer none). */
  pageTools?: boolean;
  /** The snapshot's cap in characters (default 12000). */
  maxSnapshotChars?: number;
  /** read_text's and a page tool's result cap in characters (default 4000). */
  maxTextChars?: number;
  /** The screenshot's format: png (default) or jpeg with a quality (0-100, default 70). */
  screenshot?: { format?: "png" | "jpeg"; quality?: number };
  /**
   * Where each call's approval, start and result are kept, so a new service worker neither asks
   * again nor runs an action twice: `chrome.storage.session` (default), `"local"`, or `false`.
   */
  journal?: "session" | "local" | false;
}

/** A call that asks before it runs, with what the person should see. */
export interface BrowserAsk extends BrowserCallInfo {
  call: RelayCall;
  /** The relay tool's name (`browser_click`, `webmcp_shop_example_add_to_cart`). */
  name: string;
  input: { [key: string]: unknown };
  /** The element a ref names, as the snapshot shows it (`button "Add to cart"`). */
  element?: string;
  /** Set for a page's own (WebMCP) tool, with the page's description of it. */
  pageTool?: true;
  description?: string;
}

/** `approve(asks, request)`: true allows all, false none, or the ids of the calls allowed. */
export type BrowserApprove = (asks: BrowserAsk[], request: Suspension) => boolean | string[] | Set<string> | Promise<boolean | string[] | Set<string>>;

export interface AnswerBrowserCallOptions {
  /** Asked once per request for the calls that ask first (none: not called). */
  approve?: BrowserApprove;
  /** Runs a relay call of another tool in the same request; without it such a call is an error result. */
  other?: (call: RelayCall) => { output: string; isError?: boolean; parts?: Part[] } | Promise<{ output: string; isError?: boolean; parts?: Part[] }>;
  signal?: AbortSignal;
}

/** What `browserTools` gives. */
export interface BrowserKit {
  /** The relay tools to put in a toolkit. */
  tools: Tool[];
  /** The page's own tools (WebMCP) in the target tab now, as relay tools named `webmcp_<host>_<tool>`: list them again at each turn (none where the page offers none). */
  pageTools(): Promise<Tool[]>;
  /** Whether a relay call is one this kit answers. */
  isBrowserCall(call: RelayCall): boolean;
  /** The calls of a request that ask first and were not decided yet. */
  approvalsNeeded(request: Suspension): Promise<BrowserAsk[]>;
  /**
   * The answer to a relay request: the kit's calls run in the tab in order after `approve`
   * allowed those that ask; a declined call, a stale ref (`stale_ref`), a refused origin
   * (`origin_not_allowed`) are error results the model reads, with the fix. Each call runs once:
   * asked again for the same request (a new worker resuming the halted run), it answers from
   * its journal.
   */
  answerBrowserCall(request: Suspension, options?: AnswerBrowserCallOptions): Promise<Answer>;
  /** A `waitFor` for `createClient`: relay requests answered by `answerBrowserCall`, other suspensions by `otherwise`. */
  waitFor(options?: AnswerBrowserCallOptions & { otherwise?: (request: Suspension, ctx: { signal?: AbortSignal }) => Answer | Promise<Answer> }):
    (request: Suspension, ctx: { signal?: AbortSignal }) => Promise<Answer>;
  /** Runs one call now, outside a run and without asking: its result, or a `ToolnexusError` (`stale_ref`, `origin_not_allowed`, `tab_unavailable`, ...). */
  run(name: BrowserToolName | string, input?: { [key: string]: unknown }): Promise<{ output: string; parts?: Part[] }>;
  /** The tab the next call acts in. */
  tabId(): Promise<number>;
}

/** The kit for `target`; throws `bad_input` on an unknown option or a bad origin pattern. */
export declare function browserTools(target: BrowserTarget, options?: BrowserToolsOptions): BrowserKit;

/** Page text fenced as untrusted data (what the kit returns for snapshots, text and page tools). */
export declare function fenceUntrusted(text: string, origin: string): string;

/** A page tool's relay name: `webmcp_<host>_<tool>`, at most 64 characters. */
export declare function pageToolName(origin: string, name: string): string;
