// `require("toolnexus-wasm/prompt-api")`: the ES module through require(esm) (Node 20.19+ and
// 22.12+; bundlers read it as any module), one instance with `import`. Typed by prompt-api.d.cts.
module.exports = require("./prompt-api.js");
