// @ts-check
// The tab side of `toolnexus-wasm/browser`: one self-contained function that the service worker
// injects with `chrome.scripting.executeScript({ func: pageAgent, args })` into a frame's
// isolated world (the page's own scripts never see its state). It may use nothing from this
// module's scope: executeScript sends the function's source text, not its closure.
//
// Its state lives on the isolated world's global for the document's life: the refs it gave out
// (a ref names one element for as long as that element is in the document, so a ref from an
// older snapshot still works if its element is still there, and fails as stale if it is not),
// and the results of the actions it ran by call key, so a service worker that was stopped while
// an action ran reads the action's result instead of running it a second time.

/**
 * Runs `op` in this frame and resolves to `{ ok: true, value }` or `{ ok: false, code, message }`.
 * @param {string} op  snapshot | describe | click | type | select | press | hover | scroll | wait | read | recall
 * @param {any} input  the call's arguments
 * @param {{ key?: string, maxChars?: number, frame?: number }} opts  `key`: the call's journal key
 */
export async function pageAgent(op, input, opts) {
  /** @type {any} */
  const g = globalThis;
  const S = (g.__toolnexusPage ??= { seq: 0, refs: new Map(), ids: new WeakMap(), done: new Map(), running: new Map() });
  const fail = (/** @type {string} */ code, /** @type {string} */ message) => ({ ok: false, code, message });
  const clean = (/** @type {unknown} */ s, n = 80) => {
    const t = String(s ?? "").replace(/\s+/g, " ").trim();
    return t.length > n ? `${t.slice(0, n - 1)}…` : t;
  };
  const INTERACTIVE = new Set(["button", "link", "textbox", "searchbox", "checkbox", "radio", "combobox", "listbox", "option",
    "slider", "spinbutton", "switch", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "treeitem"]);
  // Containers that give the snapshot its shape; any other element without a role is transparent.
  const CONTAINERS = new Set(["navigation", "main", "form", "list", "listitem", "dialog", "table", "row", "region", "banner",
    "contentinfo", "complementary", "group", "tablist", "menu", "tree", "article", "alert", "status"]);
  const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD", "META", "LINK", "SVG"]);

  /** @param {Element} el */
  function role(el) {
    const explicit = el.getAttribute("role")?.split(/\s+/)[0];
    if (explicit) return explicit;
    const tag = el.tagName;
    if (tag === "A") return el.hasAttribute("href") ? "link" : "";
    if (tag === "BUTTON" || tag === "SUMMARY") return "button";
    if (tag === "INPUT") {
      const type = (/** @type {HTMLInputElement} */ (el)).type;
      if (type === "hidden") return "";
      if (["button", "submit", "reset", "image"].includes(type)) return "button";
      if (type === "checkbox") return "checkbox";
      if (type === "radio") return "radio";
      if (type === "range") return "slider";
      if (type === "number") return "spinbutton";
      if (type === "search") return "searchbox";
      return "textbox";
    }
    if (tag === "TEXTAREA") return "textbox";
    if (tag === "SELECT") return (/** @type {HTMLSelectElement} */ (el)).multiple ? "listbox" : "combobox";
    if (tag === "OPTION") return "option";
    if (/^H[1-6]$/.test(tag)) return "heading";
    if (tag === "IMG") return el.getAttribute("alt") ? "img" : "";
    if (tag === "IFRAME" || tag === "FRAME") return "iframe";
    const plain = { NAV: "navigation", MAIN: "main", UL: "list", OL: "list", LI: "listitem", DIALOG: "dialog", TABLE: "table",
      TR: "row", ARTICLE: "article", FORM: "form", HEADER: "banner", FOOTER: "contentinfo", ASIDE: "complementary" };
    if (tag in plain) return plain[/** @type {keyof typeof plain} */ (tag)];
    if ((/** @type {HTMLElement} */ (el)).isContentEditable && el.getAttribute("contenteditable") !== null) return "textbox";
    return "";
  }

  /** @param {Element} el @param {string} r */
  function nameOf(el, r) {
    const aria = el.getAttribute("aria-label");
    if (aria) return clean(aria);
    const by = el.getAttribute("aria-labelledby");
    if (by) {
      const t = by.split(/\s+/).map((id) => document.getElementById(id)?.textContent ?? "").join(" ");
      if (t.trim()) return clean(t);
    }
    const labels = /** @type {HTMLInputElement} */ (el).labels;
    if (labels?.length) return clean(Array.from(labels).map(ownText).join(" "));
    if (el.tagName === "IMG") return clean(el.getAttribute("alt"));
    if (el.tagName === "INPUT" && ["button", "submit", "reset"].includes((/** @type {HTMLInputElement} */ (el)).type)) {
      return clean((/** @type {HTMLInputElement} */ (el)).value || el.getAttribute("type"));
    }
    if (["button", "link", "heading", "option", "tab", "menuitem", "treeitem", "switch"].includes(r) || el.tagName === "SUMMARY") {
      const t = clean((/** @type {HTMLElement} */ (el)).innerText ?? el.textContent);
      if (t) return t;
    }
    return clean(el.getAttribute("title") || el.getAttribute("placeholder") || "");
  }

  /** A label's text without the text of the controls inside it (a select's options). @param {Node} n @returns {string} */
  function ownText(n) {
    if (n.nodeType === Node.TEXT_NODE) return n.textContent ?? "";
    if (n.nodeType !== Node.ELEMENT_NODE || ["SELECT", "TEXTAREA", "INPUT", "BUTTON"].includes(/** @type {Element} */ (n).tagName)) return "";
    return Array.from(n.childNodes).map(ownText).join(" ");
  }

  /** @param {Element} el */
  function visible(el) {
    const h = /** @type {HTMLElement} */ (el);
    if (h.hidden || el.getAttribute("aria-hidden") === "true") return false;
    if (typeof h.checkVisibility === "function") return h.checkVisibility({ visibilityProperty: true });
    const s = getComputedStyle(el);
    return s.display !== "none" && s.visibility !== "hidden";
  }

  /** @param {Element} el */
  function refFor(el) {
    let ref = S.ids.get(el);
    if (!ref) {
      ref = `e${++S.seq}`;
      S.ids.set(el, ref);
      S.refs.set(ref, new WeakRef(el));
    }
    return ref;
  }

  /** The states worth a model's attention, `[checked]`, `[disabled]`, `value="…"`. @param {Element} el @param {string} r */
  function states(el, r) {
    const out = [];
    const f = /** @type {HTMLInputElement} */ (el);
    if (r === "heading") out.push(`[level=${el.tagName[1] ?? el.getAttribute("aria-level") ?? 2}]`);
    if (el.getAttribute("aria-checked") === "true" || ((r === "checkbox" || r === "radio") && f.checked)) out.push("[checked]");
    if (f.disabled || el.getAttribute("aria-disabled") === "true") out.push("[disabled]");
    if (el.getAttribute("aria-expanded")) out.push(`[expanded=${el.getAttribute("aria-expanded")}]`);
    if (el.getAttribute("aria-selected") === "true" || (el.tagName === "OPTION" && (/** @type {HTMLOptionElement} */ (el)).selected)) out.push("[selected]");
    if (f.required) out.push("[required]");
    if (f.readOnly) out.push("[readonly]");
    if (document.activeElement === el) out.push("[focused]");
    if (el.tagName === "SELECT") {
      const chosen = Array.from((/** @type {HTMLSelectElement} */ (el)).selectedOptions).map((o) => clean(o.text, 40));
      if (chosen.length) out.push(`value=${JSON.stringify(chosen.join(", "))}`);
    } else if ((r === "textbox" || r === "searchbox" || r === "spinbutton" || r === "slider") && el.tagName !== "DIV") {
      if (f.type === "password") out.push(f.value ? 'value="••••"' : "");
      else if (f.value) out.push(`value=${JSON.stringify(clean(f.value, 120))}`);
    } else if (r === "link") {
      const href = el.getAttribute("href") ?? "";
      if (href && !href.startsWith("javascript:")) out.push(`[url=${clean(href, 100)}]`);
    }
    return out.filter(Boolean).join(" ");
  }

  function snapshot(/** @type {number} */ maxChars) {
    const lines = [];
    let size = 0;
    let cut = false;
    const push = (/** @type {number} */ depth, /** @type {string} */ line) => {
      if (cut) return;
      const text = `${"  ".repeat(depth)}- ${line}`;
      if (size + text.length + 1 > maxChars) { cut = true; return; }
      lines.push(text);
      size += text.length + 1;
    };
    let pending = "";
    let pendingDepth = 0;
    const flush = () => {
      const t = clean(pending, 300);
      if (t) push(pendingDepth, `text: ${t}`);
      pending = "";
    };
    /** @param {Node} node @param {number} depth @param {boolean} [quiet] its own text is a control's name (a label's) */
    const walk = (node, depth, quiet = false) => {
      if (cut) return;
      for (const child of Array.from(node.childNodes)) {
        if (child.nodeType === Node.TEXT_NODE) {
          if (quiet) continue;
          if (!pending) pendingDepth = depth;
          pending += ` ${child.textContent}`;
          continue;
        }
        if (child.nodeType !== Node.ELEMENT_NODE) continue;
        const el = /** @type {Element} */ (child);
        if (SKIP.has(el.tagName.toUpperCase()) || !visible(el)) continue;
        const r = role(el);
        const focusable = (/** @type {HTMLElement} */ (el)).tabIndex >= 0 && el.hasAttribute("tabindex");
        const acts = INTERACTIVE.has(r) || (focusable && r !== "iframe") || el.hasAttribute("onclick");
        if (r === "iframe") {
          flush();
          // The service worker places the frame's own snapshot under this line, found by its
          // frame id where the browser tells it (runtime.getFrameId), else by its URL.
          let id;
          try { id = (g.browser ?? g.chrome)?.runtime?.getFrameId?.(el); } catch {}
          const src = (/** @type {HTMLIFrameElement} */ (el)).src;
          const where = Number.isInteger(id) && id > 0 ? `[frame=${id}]` : src ? `[frame-src=${encodeURI(src)}]` : "";
          push(depth, `iframe ${JSON.stringify(nameOf(el, r) || clean(el.getAttribute("src"), 80))} ${where}`.trim());
          continue;
        }
        if (acts || r === "heading" || r === "img" || (CONTAINERS.has(r) && (r !== "form" || nameOf(el, r)))) {
          flush();
          const name = nameOf(el, r);
          const parts = [r || "generic"];
          if (name) parts.push(JSON.stringify(name));
          const st = states(el, r);
          if (st) parts.push(st);
          if (acts) parts.push(`[ref=${refFor(el)}]`);
          push(depth, parts.join(" "));
          // An interactive element's own text is its name; its options (a select's) are listed.
          if (el.tagName === "SELECT") {
            for (const o of Array.from((/** @type {HTMLSelectElement} */ (el)).options)) push(depth + 1, `option ${JSON.stringify(clean(o.text, 60))}${o.selected ? " [selected]" : ""}`);
          } else if (!acts && r !== "heading" && r !== "img") walk(el, depth + 1);
          continue;
        }
        walk(el, depth, quiet || (el.tagName === "LABEL" && Boolean(/** @type {HTMLLabelElement} */ (el).control)));
        // Block elements end a run of text: a paragraph is a line of its own.
        if (pending && getComputedStyle(el).display !== "inline") flush();
      }
    };
    if (document.body) walk(document.body, 0);
    flush();
    if (cut) lines.push(`- (cut at ${maxChars} characters: read_text or scroll for the rest)`);
    return { title: document.title, url: location.href, text: lines.join("\n") };
  }

  /** The element a ref names, or a failure that says how to get a fresh one. */
  function target(/** @type {any} */ input) {
    if (typeof input?.ref === "string" && input.ref) {
      const local = input.ref.replace(/^f\d+/, "");
      const el = S.refs.get(local)?.deref();
      if (!el || !el.isConnected) {
        return { error: fail("stale_ref", `ref ${input.ref} is stale: the page changed since the snapshot that gave it (or it came from another page). Take a new snapshot and use its refs.`) };
      }
      return { el };
    }
    // A CSS selector in place of a ref, for hosts whose tool declarations predate snapshots.
    if (typeof input?.selector === "string" && input.selector) {
      let el = null;
      try { el = document.querySelector(input.selector); } catch (e) { return { error: fail("bad_input", `invalid selector ${input.selector}: ${/** @type {Error} */ (e).message}`) }; }
      return el ? { el } : { error: fail("not_found", `no element matches ${input.selector}: take a snapshot and act by ref`) };
    }
    return { error: fail("bad_input", "this action needs the ref of an element (from a snapshot)") };
  }

  const label = (/** @type {Element} */ el) => {
    const r = role(el) || el.tagName.toLowerCase();
    const n = nameOf(el, r);
    return n ? `${r} ${JSON.stringify(n)}` : r;
  };
  const events = (/** @type {Element} */ el, /** @type {string[]} */ names, init = {}) => {
    for (const n of names) {
      const E = n.startsWith("pointer") && typeof PointerEvent === "function" ? PointerEvent : MouseEvent;
      el.dispatchEvent(new E(n, { bubbles: true, cancelable: true, composed: true, view: window, ...init }));
    }
  };
  /** Sets a form field's value the way typing does, past frameworks that track the setter. */
  const setValue = (/** @type {HTMLInputElement | HTMLTextAreaElement} */ el, /** @type {string} */ value) => {
    const proto = el.tagName === "TEXTAREA" ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    const setter = Object.getOwnPropertyDescriptor(proto, "value")?.set;
    if (setter) setter.call(el, value);
    else el.value = value;
    el.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertText", data: value }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
  };
  const key = (/** @type {Element} */ el, /** @type {string} */ k) => {
    for (const type of ["keydown", "keypress", "keyup"]) {
      el.dispatchEvent(new KeyboardEvent(type, { key: k, code: k.length === 1 ? `Key${k.toUpperCase()}` : k, bubbles: true, cancelable: true, composed: true }));
    }
    // Synthetic keys do not submit: Enter in a form's field does what the browser would.
    const form = /** @type {HTMLInputElement} */ (el).form;
    if (k === "Enter" && form && el.tagName === "INPUT") {
      form.requestSubmit();
      return " and submitted the form";
    }
    return "";
  };

  /** The text of the page or an element, capped. */
  const readText = (/** @type {HTMLElement} */ el, /** @type {number} */ max) => {
    const t = (el.innerText ?? el.textContent ?? "").replace(/\n{3,}/g, "\n\n").trim();
    return t.length > max ? `${t.slice(0, max)}\n… (cut at ${max} characters)` : t;
  };

  async function waitFor(/** @type {any} */ input) {
    const timeout = Math.min(Math.max(Number(input?.timeoutMs) || 5000, 0), 20_000);
    const check = () => {
      const body = document.body?.innerText ?? "";
      if (typeof input?.text === "string" && input.text && !body.includes(input.text)) return false;
      if (typeof input?.textGone === "string" && input.textGone && body.includes(input.textGone)) return false;
      if (typeof input?.selector === "string" && input.selector && !document.querySelector(input.selector)) return false;
      return true;
    };
    const start = Date.now();
    while (!check()) {
      if (Date.now() - start > timeout) return fail("timeout", `waited ${timeout} ms and the page does not show it yet: take a snapshot to see what it shows`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return { ok: true, value: `the page shows it (after ${Date.now() - start} ms)` };
  }

  async function act() {
    const maxChars = opts?.maxChars ?? 4000;
    if (op === "snapshot") return { ok: true, value: snapshot(maxChars) };
    if (op === "wait") return waitFor(input);
    if (op === "read" && !input?.ref && !input?.selector) return { ok: true, value: readText(document.body, maxChars) };
    if (op === "scroll" && !input?.ref) {
      const dy = (input?.direction === "up" ? -1 : 1) * (Number(input?.pixels) || Math.round(innerHeight * 0.8));
      scrollBy(0, dy);
      return { ok: true, value: `scrolled ${dy > 0 ? "down" : "up"} to ${Math.round(scrollY)} px of ${document.documentElement.scrollHeight}` };
    }
    const { el, error } = target(input);
    if (error || !el) return error;
    const what = label(el);
    if (op === "describe") return { ok: true, value: what };
    if (op === "read") return { ok: true, value: readText(/** @type {HTMLElement} */ (el), maxChars) };
    const h = /** @type {HTMLElement} */ (el);
    h.scrollIntoView?.({ block: "center", inline: "nearest" });
    if ((/** @type {HTMLInputElement} */ (el)).disabled) return fail("disabled", `${what} is disabled: take a snapshot to see what the page needs first`);
    if (op === "click") {
      events(el, ["pointerover", "mouseover", "pointerdown", "mousedown"]);
      h.focus?.();
      events(el, ["pointerup", "mouseup"]);
      h.click();
      return { ok: true, value: `clicked ${what}` };
    }
    if (op === "hover") {
      events(el, ["pointerover", "pointerenter", "mouseover", "mouseenter", "pointermove", "mousemove"]);
      return { ok: true, value: `hovering over ${what}` };
    }
    if (op === "scroll") return { ok: true, value: `scrolled ${what} into view` };
    if (op === "type") {
      const text = String(input?.text ?? "");
      h.focus?.();
      if (el.tagName === "INPUT" || el.tagName === "TEXTAREA") setValue(/** @type {HTMLInputElement} */ (el), text);
      else if (h.isContentEditable) {
        h.textContent = text;
        h.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertText", data: text }));
      } else return fail("bad_input", `${what} does not take text: type into a textbox`);
      const submitted = input?.submit === true ? key(el, "Enter") : "";
      return { ok: true, value: `typed ${JSON.stringify(text)} into ${what}${submitted}` };
    }
    if (op === "select") {
      if (el.tagName !== "SELECT") return fail("bad_input", `${what} is not a select: click the option instead`);
      const sel = /** @type {HTMLSelectElement} */ (el);
      const want = (Array.isArray(input?.values) ? input.values : [input?.values]).map(String);
      const match = Array.from(sel.options).filter((o) => want.includes(o.value) || want.includes(o.text.trim()));
      const picked = (sel.multiple ? match : match.slice(0, 1)).map((o) => o.text.trim());
      // A single select always has one option selected: deselecting reselects the first, so only the match is set.
      if (sel.multiple) for (const o of Array.from(sel.options)) o.selected = match.includes(o);
      else if (match[0]) match[0].selected = true;
      if (!picked.length) return fail("not_found", `${what} has no option ${JSON.stringify(want.join(", "))}: take a snapshot to see its options`);
      sel.dispatchEvent(new Event("input", { bubbles: true }));
      sel.dispatchEvent(new Event("change", { bubbles: true }));
      return { ok: true, value: `selected ${JSON.stringify(picked.join(", "))} in ${what}` };
    }
    if (op === "press") {
      h.focus?.();
      const more = key(el, String(input?.key ?? ""));
      return { ok: true, value: `pressed ${input?.key} on ${what}${more}` };
    }
    return fail("bad_input", `unknown page operation ${op}`);
  }

  try {
    // The journal: an action runs once per call key, in this document; asked again (a new
    // service worker), it answers with what the first run gave, or waits for it to finish.
    const k = opts?.key;
    if (op === "recall") {
      if (k && S.done.has(k)) return S.done.get(k);
      if (k && S.running.has(k)) return await S.running.get(k);
      return fail("unknown_call", "this document has no record of the call");
    }
    if (!k) return await act();
    if (S.done.has(k)) return S.done.get(k);
    if (S.running.has(k)) return await S.running.get(k);
    const run = act();
    S.running.set(k, run);
    const r = await run;
    S.done.set(k, r);
    S.running.delete(k);
    if (S.done.size > 200) S.done.delete(S.done.keys().next().value);
    return r;
  } catch (e) {
    return fail("page_error", `the page threw: ${/** @type {Error} */ (e)?.message ?? String(e)}`);
  }
}

/**
 * The page's own tools (WebMCP), run in the page's main world, where a page registers them:
 * `navigator.modelContext` or `document.modelContext` (the API still moves between the two),
 * listed with `getTools()` (or a `tools` list), run with `executeTool(tool, input)` or the tool's
 * own `execute(input)`. Absent: an empty list, and nothing else happens.
 * @param {"list" | "call"} op
 * @param {{ name?: string, input?: unknown }} arg
 */
export async function pageToolsAgent(op, arg) {
  /** @type {any} */
  const mc = /** @type {any} */ (navigator).modelContext ?? /** @type {any} */ (document).modelContext;
  if (!mc) return op === "list" ? { ok: true, value: { origin: location.origin, tools: [] } } : { ok: false, code: "no_page_tools", message: "this page offers no tools (any more): take a snapshot" };
  try {
    const tools = typeof mc.getTools === "function" ? await mc.getTools() : (mc.tools ?? []);
    const list = [...(tools ?? [])];
    if (op === "list") {
      const plain = list.map((t) => ({
        name: String(t?.name ?? ""), description: String(t?.description ?? "").slice(0, 1000),
        inputSchema: t?.inputSchema && typeof t.inputSchema === "object" ? JSON.parse(JSON.stringify(t.inputSchema)) : { type: "object", properties: {} },
        readOnly: t?.annotations?.readOnlyHint === true,
      })).filter((t) => /^[\w.-]{1,64}$/.test(t.name));
      return { ok: true, value: { origin: location.origin, tools: plain } };
    }
    const tool = list.find((t) => t?.name === arg.name);
    if (!tool) return { ok: false, code: "no_page_tools", message: `the page no longer offers ${arg.name}: its tools changed` };
    const input = arg.input && typeof arg.input === "object" ? arg.input : {};
    const out = typeof mc.executeTool === "function" ? await mc.executeTool(tool, input) : await tool.execute(input);
    // MCP's shape ({ content: [{ type: "text", text }] }), a string, or any JSON value.
    const text = typeof out === "string" ? out
      : Array.isArray(out?.content) ? out.content.map((/** @type {any} */ c) => (c?.type === "text" ? c.text : JSON.stringify(c))).join("\n")
      : JSON.stringify(out ?? null);
    return { ok: true, value: String(text), isError: out?.isError === true };
  } catch (e) {
    return { ok: false, code: "page_tool_failed", message: `the page's tool failed: ${/** @type {Error} */ (e)?.message ?? String(e)}` };
  }
}
