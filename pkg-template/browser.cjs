// `require("toolnexus-wasm/browser")`: the ES module through require(esm) (Node 20.19+ and 22.12+;
// bundlers read it as any module), one instance with `import`. Typed by browser.d.cts.
module.exports = require("./browser.js");
