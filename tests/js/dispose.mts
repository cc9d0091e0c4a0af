// Compiled only under a lib that declares Symbol.dispose (tsconfig.nodenext.json: module nodenext
// implies target and lib esnext): there a Toolkit is Disposable, so `using` accepts it. An ES
// module, so it reads the .d.ts typings (usage.ts, CommonJS, reads the .d.cts ones).
import { createToolkit, relayTool } from "toolnexus-wasm";
import type { Toolkit } from "toolnexus-wasm";

export function scoped(): number {
  using kit = createToolkit([relayTool("click", "Click")]);
  const disposable: Disposable = kit;
  const toolkit: Toolkit = kit;
  return toolkit.tools.length + (disposable === kit ? 0 : 1);
}
