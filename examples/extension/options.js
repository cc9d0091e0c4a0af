const ids = ["style", "baseUrl", "model", "apiKey"];
chrome.storage.local.get("provider").then(({ provider = {} }) => ids.forEach((id) => { if (provider[id]) document.getElementById(id).value = provider[id]; }));
document.getElementById("save").onclick = async () => {
  const provider = Object.fromEntries(ids.map((id) => [id, document.getElementById(id).value.trim()]));
  await chrome.storage.local.set({ provider });
  document.getElementById("saved").textContent = "Saved.";
};
