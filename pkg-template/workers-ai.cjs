// `require("toolnexus-wasm/workers-ai")`: the ES module through require(esm) (Node 20.19+ and
// 22.12+; bundlers read it as any module), one instance with `import`. Typed by workers-ai.d.cts.
module.exports = require("./workers-ai.js");
