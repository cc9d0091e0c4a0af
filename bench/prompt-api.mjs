// The cost of toolnexus-wasm/prompt-api per model call (issue 36 item 3), in one Node process on
// the scripted LanguageModel (tests/js/fake-language-model.mjs), for one text turn:
//   direct      the fake alone: LanguageModel.create({ initialPrompts }), prompt(), destroy()
//   in-process  client.run on inProcessModel whose generate makes that same direct call
//   native      client.run on promptApi({ mode: "native" })
//   constrained client.run on promptApi({ mode: "constrained" })
// p50 per run (µs) of ROUNDS x BATCH runs, interleaved. The overhead of a call through the seam
// is (variant - direct): the loop's run, the in-process fetch, and prompt-api's mapping.
//
//   ./scripts/build.sh && node bench/prompt-api.mjs
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.resolve(process.env.TOOLNEXUS_PKG ?? path.join(here, "../pkg"));
const { createClient } = await import(path.join(pkg, "node.js"));
const { inProcessModel } = await import(path.join(pkg, "in-process.js"));
const { promptApi } = await import(path.join(pkg, "prompt-api.js"));
const { installFakeLanguageModel } = await import(path.join(here, "../tests/js/fake-language-model.mjs"));

const ROUNDS = Number(process.env.ROUNDS ?? 20), BATCH = Number(process.env.BATCH ?? 50);
installFakeLanguageModel({ toolUse: true, contextWindow: 1e9 });
const LM = globalThis.LanguageModel;
const system = "You are brief.", prompt = "Say hello.";

const direct = async () => {
  const s = await LM.create({ initialPrompts: [{ role: "system", content: system }] });
  const r = await s.prompt([{ role: "user", content: prompt }]);
  s.destroy();
  return r;
};
const inProcess = createClient({ ...inProcessModel({ generate: async () => ({ text: (await direct())[0].value }) }), systemPrompt: system });
const native = createClient({ ...(await promptApi({ mode: "native" })), systemPrompt: system });
const constrained = createClient({ ...(await promptApi({ mode: "constrained" })), systemPrompt: system });
const variants = {
  direct,
  "in-process": () => inProcess.run(prompt),
  native: () => native.run(prompt),
  constrained: () => constrained.run(prompt),
};
for (const [name, f] of Object.entries(variants)) {
  const r = await f();
  const text = r.text ?? r[0]?.value;
  if (!/Hello from the built-in model/.test(text)) throw new Error(`${name}: unexpected reply ${JSON.stringify(r)}`);
}
const samples = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, f] of Object.entries(variants)) {
    const t0 = performance.now();
    for (let i = 0; i < BATCH; i++) await f();
    samples[name].push(((performance.now() - t0) * 1000) / BATCH);
  }
}
const p50 = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = p50(samples.direct);
for (const [name, xs] of Object.entries(samples)) {
  const m = p50(xs);
  console.log(`${name.padEnd(12)} p50 ${m.toFixed(1).padStart(7)} µs/run${name == "direct" ? "" : `   overhead ${(m - base).toFixed(1)} µs`}`);
}
