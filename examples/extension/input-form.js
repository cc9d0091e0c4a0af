// An MCP server's question (a `kind: "input"` suspension) as a card in the side panel: each
// elicitation in `data.inputRequests` becomes a form drawn from its `requestedSchema` (string,
// number, integer, boolean and enum fields, with titles, descriptions, defaults and `required`),
// or, in URL mode, a link to open; a child agent's question says which agent it came through.
// The browser checks the fields (required, min/max, integer steps, email/URL/date formats)
// before the answer goes out; the server checks them again. Submit (Done for links) accepts;
// Decline and Cancel refuse, which the server hears as `decline` or `cancel`.

let seq = 0; // element ids, unique in the page whatever the request ids hold

/** A labelled enum: `enum` (+ the legacy `enumNames`) or `oneOf` / `anyOf` of `{ const, title }`. */
function choices(s) {
  if (Array.isArray(s.enum)) return s.enum.map((v, i) => [v, s.enumNames?.[i] ?? v]);
  const list = s.oneOf ?? s.anyOf;
  if (Array.isArray(list) && list.length && list.every((o) => typeof o?.const === "string")) return list.map((o) => [o.const, o.title ?? o.const]);
  return null;
}

const FORMATS = { email: "email", uri: "url", date: "date", "date-time": "datetime-local" };

/** One field: `{ row, value() }` (value() is undefined for an empty optional field), or null for
 * a type this form cannot draw. */
function field(name, s, required) {
  const id = `in-${++seq}`;
  const row = document.createElement("div");
  row.className = "field";
  const label = document.createElement("label");
  label.htmlFor = id;
  label.textContent = s.title || name;
  if (required) label.append(Object.assign(document.createElement("span"), { className: "req", textContent: " (required)" }));
  const options = choices(s);
  let input;
  let value;
  if (options && (s.type === "string" || s.type === undefined)) {
    input = document.createElement("select");
    // No silent pick: an empty first option unless a default is given.
    if (!required || s.default === undefined) input.append(new Option(required ? "Choose…" : "—", ""));
    for (const [v, text] of options) input.append(new Option(String(text), String(v), false, v === s.default));
    value = () => input.value || undefined;
  } else if (s.type === "boolean") {
    input = Object.assign(document.createElement("input"), { type: "checkbox", checked: s.default === true });
    value = () => input.checked;
    row.classList.add("check");
  } else if (s.type === "number" || s.type === "integer") {
    input = Object.assign(document.createElement("input"), { type: "number", step: s.type === "integer" ? "1" : "any" });
    if (typeof s.minimum === "number") input.min = String(s.minimum);
    if (typeof s.maximum === "number") input.max = String(s.maximum);
    if (typeof s.default === "number") input.value = String(s.default);
    value = () => (input.value === "" ? undefined : input.valueAsNumber);
  } else if (s.type === "string") {
    input = Object.assign(document.createElement("input"), { type: FORMATS[s.format] ?? "text" });
    if (Number.isInteger(s.minLength)) input.minLength = s.minLength;
    if (Number.isInteger(s.maxLength)) input.maxLength = s.maxLength;
    if (typeof s.default === "string") input.value = s.default;
    // datetime-local has no zone: sent as the instant it names here, in RFC 3339.
    value = () => (input.value === "" ? undefined : s.format === "date-time" ? new Date(input.value).toISOString() : input.value);
  } else {
    return null;
  }
  input.id = id;
  input.name = name;
  input.required = required && s.type !== "boolean"; // an unticked box is an answer too
  if (s.type === "boolean") row.append(input, label);
  else row.append(label, input);
  if (s.description) {
    const d = Object.assign(document.createElement("small"), { id: `${id}-d`, textContent: s.description });
    input.setAttribute("aria-describedby", d.id);
    row.append(d);
  }
  return { row, value };
}

/** A URL-mode request's link; only http(s) is made clickable. */
function link(url) {
  let u = null;
  try { u = new URL(url); } catch {}
  if (!u || !["https:", "http:"].includes(u.protocol)) return Object.assign(document.createElement("code"), { textContent: String(url) });
  return Object.assign(document.createElement("a"), { href: u.href, target: "_blank", rel: "noopener noreferrer", textContent: `Open ${u.host}` });
}

/**
 * The card for `request` (a `kind: "input"` suspension). `answer({ ok, data?, reason? })` is
 * called once, with the answer the worker sends back under the request's id.
 */
export function inputCard(request, answer) {
  const { server = "An MCP server", inputRequests = {} } = request.data ?? {};
  const form = document.createElement("form");
  form.className = "card input";
  form.dataset.request = request.id;
  const head = Object.assign(document.createElement("p"), { id: `in-${++seq}`, className: "asks" });
  // A child agent's question names the agents it came through (`path`, from the root down), as
  // the panel's approval cards do: the person sees whose task it is part of.
  const via = request.path?.length ? ` (through the ${request.path.map((s) => s.agent).join(" → ")} agent)` : "";
  head.append(Object.assign(document.createElement("strong"), { textContent: server }), ` asks${via}:`);
  form.setAttribute("aria-labelledby", head.id);
  form.append(head);
  const parts = []; // [key, () => response]
  let drawable = true;
  let onlyLinks = true;
  for (const [key, r] of Object.entries(inputRequests)) {
    const p = r?.params ?? {};
    const group = document.createElement("fieldset");
    group.append(Object.assign(document.createElement("legend"), { textContent: p.message || key }));
    form.append(group);
    if (r?.method === "elicitation/create" && p.mode === "url") {
      group.append(link(p.url));
      parts.push([key, () => ({ action: "accept" })]);
      continue;
    }
    onlyLinks = false;
    const schema = p.requestedSchema;
    if (r?.method !== "elicitation/create" || (schema && typeof schema.properties !== "object")) {
      group.append(Object.assign(document.createElement("p"), { className: "note", textContent: `This panel cannot answer a ${r?.method ?? "malformed"} request: decline or cancel it.` }));
      drawable = false;
      continue;
    }
    const required = new Set(Array.isArray(schema?.required) ? schema.required : []);
    const fields = [];
    for (const [name, s] of Object.entries(schema?.properties ?? {})) {
      const f = field(name, s ?? {}, required.has(name));
      if (f) { group.append(f.row); fields.push([name, f.value]); continue; }
      group.append(Object.assign(document.createElement("p"), { className: "note", textContent: `${s?.title || name}: this field cannot be filled in here.` }));
      if (required.has(name)) drawable = false;
    }
    parts.push([key, () => {
      const content = {};
      for (const [name, value] of fields) { const v = value(); if (v !== undefined) content[name] = v; }
      return { action: "accept", content };
    }]);
  }
  const done = (a) => { form.remove(); answer(a); };
  const buttons = document.createElement("div");
  buttons.className = "buttons";
  const submit = Object.assign(document.createElement("button"), { type: "submit", className: "allow", textContent: onlyLinks ? "Done" : "Submit", disabled: !drawable });
  buttons.append(submit);
  for (const [text, reason] of [["Decline", "declined"], ["Cancel", "cancelled"]]) {
    const b = Object.assign(document.createElement("button"), { type: "button", className: reason === "declined" ? "decline" : "cancel", textContent: text });
    b.onclick = () => done({ ok: false, reason });
    buttons.append(b);
  }
  form.append(buttons);
  form.onsubmit = (ev) => {
    ev.preventDefault();
    done({ ok: true, data: { inputResponses: Object.fromEntries(parts.map(([key, response]) => [key, response()])) } });
  };
  return form;
}
