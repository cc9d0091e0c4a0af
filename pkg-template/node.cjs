// `require("toolnexus-wasm")` in Node: the ES module entry itself, loaded through Node's
// require(esm) (Node 20.19+ and 22.12+; the entry has no top-level await, which it needs), so
// `import` and `require` share one module instance and one wasm memory. Typed by index.d.cts.
module.exports = require("./node.js");
