const ids = ["style", "baseUrl", "model", "apiKey"];
chrome.storage.local.get("provider").then(({ provider = {} }) => ids.forEach((id) => { if (provider[id]) document.getElementById(id).value = provider[id]; }));
document.getElementById("save").onclick = async () => {
  const provider = Object.fromEntries(ids.map((id) => [id, document.getElementById(id).value.trim()]));
  await chrome.storage.local.set({ provider });
  document.getElementById("saved").textContent = "Saved.";
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
