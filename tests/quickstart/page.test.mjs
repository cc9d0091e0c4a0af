// The page quick starts, as written, in headless Chromium (Playwright): README.md's demo page
// served by `node demo/serve.mjs` from a clean copy, and the package README's index.html (an
// import map, no bundler) beside the package installed from its tarball, its OpenAI calls
// answered by the scripted model (the test routes api.openai.com there: a page has no env).
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { CHROMIUM_ARGS, block, chromium, cleanCopy, freePort, projectWithTarball, quickstarts, removeCopy, scriptedModel, serve, substitute } from "./readme.mjs";

let copy, model, browser;
const servers = [];
before(async () => {
  copy = cleanCopy("page");
  model = await scriptedModel();
  browser = await (await chromium()).launch({ executablePath: "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS });
});
after(async () => {
  await browser?.close();
  for (const s of servers) await s.stop();
  await model?.close();
  removeCopy(copy);
});

test("README.md: node demo/serve.mjs serves the demo page, which answers a prompt", async () => {
  const code = block(quickstarts(path.join(copy, "README.md")), "page", "bash");
  const [command] = code.split("#")[0].trim().split("\n");
  assert.equal(command.trim(), "node demo/serve.mjs");
  const url = /open (http:\S+)/.exec(code)?.[1];
  assert.equal(url, "http://127.0.0.1:8080/www/index.html");
  // The one edit: a free port instead of 8080, which may be taken here.
  const port = await freePort();
  const server = await serve(process.execPath, ["demo/serve.mjs", String(port)], { cwd: copy, ready: /demo page: http/ });
  servers.push(server);
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e));
  await page.goto(substitute(url, ":8080/", `:${port}/`));
  await page.waitForFunction(() => document.body.dataset.ready === "yes", null, { timeout: 15_000 });
  await page.fill("#prompt", "What is 12 * 7?");
  await page.click("#send");
  await page.waitForFunction(() => document.body.dataset.status === "done", null, { timeout: 15_000 });
  assert.equal(await page.evaluate(() => document.body.dataset.answer), "12 * 7 = 84");
  assert.deepEqual(errors, []);
  await page.close();
});

test("pkg-template/README.md: index.html with an import map runs the loop in the page", async () => {
  const html = block(quickstarts(path.join(copy, "pkg-template/README.md")), "index.html", "html");
  const project = projectWithTarball(copy);
  fs.writeFileSync(path.join(project, "index.html"), html);
  // Any static server will do (the README suggests python's); this one serves the project folder.
  const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };
  const files = http.createServer((req, res) => {
    const file = path.join(project, decodeURIComponent(new URL(req.url, "http://x").pathname).replace(/\/$/, "/index.html"));
    if (!file.startsWith(project) || !fs.existsSync(file)) { res.writeHead(404); return res.end(); }
    res.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((r) => files.listen(0, "127.0.0.1", r));
  servers.push({ stop: () => new Promise((r) => files.close(r)) });

  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e));
  page.on("dialog", (d) => d.accept("sk-quickstart")); // the key the page asks for
  const seen = [];
  await page.route("https://api.openai.com/**", async (route) => {
    seen.push(route.request().url());
    const to = substitute(route.request().url(), "https://api.openai.com", model.url);
    await route.fulfill({ response: await route.fetch({ url: to }) });
  });
  await page.goto(`http://127.0.0.1:${files.address().port}/`);
  // The answer replaces the placeholder; an uncaught error (in `errors`) leaves it there.
  await page.waitForFunction(() => document.querySelector("#answer")?.textContent.startsWith("Done") || null, null, { timeout: 15_000 })
    .catch((e) => { throw new Error(`no answer in the page (errors: ${errors.join("; ")}): ${e.message}`); });
  assert.equal(await page.textContent("#answer"), "Done. lookup_price → $12.50");
  assert.deepEqual(seen, ["https://api.openai.com/v1/chat/completions", "https://api.openai.com/v1/chat/completions"]);
  assert.equal(model.requests.at(-1).headers.authorization, "Bearer sk-quickstart");
  assert.deepEqual(errors, []);
  await page.unrouteAll({ behavior: "ignoreErrors" });
  await page.close();
});
