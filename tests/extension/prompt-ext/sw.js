// The service worker: agent.js's commands, run on a message from an extension page (which also
// wakes a stopped worker, as any extension event does).
import { commands } from "./agent.js";

chrome.runtime.onMessage.addListener((msg, _sender, reply) => {
  commands[msg.cmd](msg.cfg).then((value) => reply({ value }), (e) => reply({ error: `${e?.code ?? ""} ${e?.message ?? e}` }));
  return true;
});
