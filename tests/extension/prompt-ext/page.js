// The extension page: the same commands in the page itself (window.run), and ready for messages to the worker.
import { commands } from "./agent.js";

window.run = (cmd, cfg) => commands[cmd](cfg);
document.title = "ready";
