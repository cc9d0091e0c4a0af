// A scripted model served on 127.0.0.1 in the real OpenAI chat-completions and Anthropic
// messages wire formats: the offline default for the demo and the tests. The model itself is in
// scripted-logic.mjs (no Node built-ins), so the www page can use it as an in-page fetch.
//
//   node demo/scripted-model.mjs [port]          # serve until killed
//   import { startScriptedModel } from "./scripted-model.mjs"
import http from "node:http";
import { SCENARIOS, cors, respond } from "./scripted-logic.mjs";

export { SCENARIOS };

/** Writes an event stream in a few separate pieces, as a network would deliver it. */
function streamOut(res, text) {
  const bytes = Buffer.from(text);
  const cuts = [0, Math.floor(bytes.length / 3), Math.floor((2 * bytes.length) / 3) + 1, bytes.length];
  let i = 0;
  const next = () => {
    if (i === cuts.length - 1) return res.end();
    res.write(bytes.subarray(cuts[i], cuts[i + 1]));
    i += 1;
    setImmediate(next);
  };
  next();
}

/** Starts the server. `port: 0` picks a free port. Resolves to { url, port, requests, close }. */
export function startScriptedModel({ port = 0, scenarios = SCENARIOS } = {}) {
  const requests = [];
  const server = http.createServer((req, res) => {
    const send = (status, obj) => {
      res.writeHead(status, { "content-type": "application/json", ...cors });
      res.end(JSON.stringify(obj));
    };
    if (req.method === "OPTIONS") { res.writeHead(204, cors); return res.end(); }
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      const { status, body, sse, parsed } = respond(req.url, req.headers, raw, scenarios);
      if (parsed !== undefined) requests.push({ path: req.url, headers: req.headers, body: parsed });
      if (sse === undefined) return send(status, body);
      res.writeHead(status, { "content-type": "text/event-stream", "cache-control": "no-cache", ...cors });
      streamOut(res, sse);
    });
  });
  return new Promise((resolve) => {
    server.listen(port, "127.0.0.1", () => {
      const p = server.address().port;
      resolve({ url: `http://127.0.0.1:${p}`, port: p, requests, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const m = await startScriptedModel({ port: Number(process.argv[2] ?? 0) });
  console.log(`scripted model listening on ${m.url}`);
}
