// Opening this page sends a message, which makes Chrome start the service worker again.
chrome.runtime.sendMessage({ wake: true }).then((r) => { document.title = `awake ${r.bootId}`; });
