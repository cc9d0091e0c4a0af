// Serves the repository on 127.0.0.1 so the www demo page (www/index.html) can load the built
// package and the scripted model. `node demo/serve.mjs [port]`; the page's tests start the same
// server on a free port (`serveRepository(0)`).
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".wasm": "application/wasm", ".json": "application/json", ".png": "image/png" };

/** Resolves to the listening server; the page is `http://127.0.0.1:<port>/www/index.html`. */
export async function serveRepository(port) {
  const server = http.createServer((req, res) => {
    let file = path.join(root, decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (file === root || file === `${root}/`) file = path.join(root, "www/index.html");
    if (!file.startsWith(root) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) { res.writeHead(404); return res.end("not found"); }
    res.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((r) => server.listen(port, "127.0.0.1", r));
  return server;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const server = await serveRepository(Number(process.argv[2] ?? 8080));
  console.log(`demo page: http://127.0.0.1:${server.address().port}/www/index.html  (Ctrl-C to stop)`);
}
