// The provider settings, checked before they are saved: a style the package knows, a base URL
// that is https (http only to this machine) with nothing the path would be appended to, a model
// id and a key without spaces. Empty base URL and model take the style's defaults; an empty key
// means the offline scripted model.
const ids = ["style", "baseUrl", "model", "apiKey"];
const $ = (id) => document.getElementById(id);
const DEFAULTS = {
  openai: ["https://api.openai.com/v1", "gpt-4o-mini"],
  responses: ["https://api.openai.com/v1", "gpt-5-mini"],
  anthropic: ["https://api.anthropic.com", "claude-3-5-haiku-latest"],
  gemini: ["https://generativelanguage.googleapis.com", "gemini-2.0-flash"],
};
const LOCAL = ["localhost", "127.0.0.1", "[::1]"];

/** Field id → what is wrong with it; {} when the settings can be saved. */
function problems(p) {
  const bad = {};
  if (!DEFAULTS[p.style]) bad.style = "Choose openai, responses, anthropic or gemini.";
  if (/\s/.test(p.apiKey)) bad.apiKey = "An API key has no spaces in it (check what was pasted).";
  if (p.model && /\s/.test(p.model)) bad.model = "A model id has no spaces in it.";
  if (p.baseUrl) {
    let u = null;
    try { u = new URL(p.baseUrl); } catch { bad.baseUrl = "Not a URL: it starts with https://"; }
    if (u && u.protocol !== "https:" && !(u.protocol === "http:" && LOCAL.includes(u.hostname))) bad.baseUrl = "Use https:// (plain http only for localhost).";
    else if (u && (u.search || u.hash)) bad.baseUrl = "No ?query or #fragment: the API path is appended to this URL.";
    else if (u && p.style === "gemini" && /\/models(\/|$)/.test(u.pathname)) bad.baseUrl = "The host only (the model goes in Model), e.g. https://generativelanguage.googleapis.com";
  }
  if (!p.apiKey && (p.baseUrl || p.model)) bad.apiKey = "A base URL or model needs an API key (or clear them to stay offline).";
  return bad;
}

function hint() {
  const [base, model] = DEFAULTS[$("style").value] ?? DEFAULTS.openai;
  $("baseUrl").placeholder = base;
  $("model").placeholder = model;
  $("hint").textContent = $("style").value === "anthropic"
    ? "Anthropic: the agent sends anthropic-dangerous-direct-browser-access: true, Anthropic's opt-in for keys used from a browser."
    : "";
}

chrome.storage.local.get("provider").then(({ provider = {} }) => {
  ids.forEach((id) => { if (provider[id]) $(id).value = provider[id]; });
  hint();
});
$("style").onchange = hint;

$("form").onsubmit = async (ev) => {
  ev.preventDefault();
  const p = Object.fromEntries(ids.map((id) => [id, $(id).value.trim()]));
  const bad = problems(p);
  for (const id of ids) {
    $(`${id}-err`).textContent = bad[id] ?? "";
    $(id).setAttribute("aria-invalid", String(Boolean(bad[id])));
  }
  if (Object.keys(bad).length) {
    $("saved").textContent = "Not saved: fix the marked fields.";
    $("saved").className = "bad";
    return;
  }
  const [base, model] = DEFAULTS[p.style];
  const provider = p.apiKey ? { ...p, baseUrl: p.baseUrl || base, model: p.model || model } : { style: p.style, baseUrl: "", model: "", apiKey: "" };
  await chrome.storage.local.set({ provider });
  $("saved").textContent = p.apiKey ? `Saved: ${provider.style} · ${provider.model}, from the next message.` : "Saved: the offline scripted model.";
  $("saved").className = "";
};

// The Workflow backend (`backend`: { url, token }): an https URL (http only to this machine), the
// origin of a Worker like examples/workflow; empty runs the agent in this extension.
chrome.storage.local.get("backend").then(({ backend }) => {
  $("backendUrl").value = backend?.url ?? "";
  $("backendToken").value = backend?.token ?? "";
});
$("backendForm").onsubmit = async (ev) => {
  ev.preventDefault();
  const url = $("backendUrl").value.trim().replace(/\/+$/, "");
  let u = null;
  try { u = url ? new URL(url) : null; } catch {}
  const bad = url && !u ? "Not a URL: it starts with https://"
    : u && u.protocol !== "https:" && !(u.protocol === "http:" && LOCAL.includes(u.hostname)) ? "Use https:// (plain http only for localhost)."
    : u && (u.search || u.hash || u.pathname !== "/") ? "The Worker's origin only: the routes (/agents…) are appended to it." : "";
  $("backendUrl-err").textContent = bad;
  $("backendUrl").setAttribute("aria-invalid", String(Boolean(bad)));
  if (bad) return void ($("backendSaved").textContent = "Not saved.");
  await chrome.storage.local.set({ backend: { url, token: $("backendToken").value.trim() } });
  $("backendSaved").textContent = url ? `Saved: the agent runs on ${u.host}, from the next message.` : "Saved: the agent runs in this extension.";
};

// MCP servers: `mcpServers` is a list of { server, url }; the worker keeps each listing in
// `mcpSources` and lists a server again when its URL changes.
async function showServers() {
  const { mcpServers = [] } = await chrome.storage.local.get("mcpServers");
  const ul = document.getElementById("servers");
  ul.replaceChildren(...mcpServers.map(({ server, url }) => {
    const li = document.createElement("li");
    li.textContent = `${server} — ${url} `;
    const remove = document.createElement("button");
    remove.textContent = "Remove";
    remove.onclick = async () => {
      const { mcpServers: list = [] } = await chrome.storage.local.get("mcpServers");
      await chrome.storage.local.set({ mcpServers: list.filter((s) => s.server !== server) });
      showServers();
    };
    li.append(remove);
    return li;
  }));
}
document.getElementById("addServer").onclick = async () => {
  const server = document.getElementById("mcpName").value.trim();
  const url = document.getElementById("mcpUrl").value.trim();
  if (!server || !/^https?:\/\//.test(url)) return;
  const { mcpServers = [] } = await chrome.storage.local.get("mcpServers");
  await chrome.storage.local.set({ mcpServers: [...mcpServers.filter((s) => s.server !== server), { server, url }] });
  showServers();
};
showServers();
