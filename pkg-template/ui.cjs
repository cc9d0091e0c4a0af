// `require("toolnexus-wasm/ui")`: the ES module through require(esm) (Node 20.19+ and 22.12+;
// bundlers read it as any module), one instance with `import`. Typed by ui.d.cts.
module.exports = require("./ui.js");
