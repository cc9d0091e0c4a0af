// `require("toolnexus-wasm/workflows")` in Node: the ES module through require(esm) (Node 20.19+
// and 22.12+), one module instance with `import`. Typed by index.d.cts.
module.exports = require("./node.js");
