// `require("toolnexus-wasm/in-process")`: the ES module through require(esm) (Node 20.19+ and
// 22.12+; bundlers read it as any module), one instance with `import`. Typed by in-process.d.cts.
module.exports = require("./in-process.js");
