// Compiled only under a lib that declares Symbol.dispose (tsconfig.nodenext.json: module nodenext
// implies target and lib esnext): there a Toolkit is Disposable, so `using` accepts it.
import { createToolkit, relayTool } from "toolnexus-wasm";
import type { Toolkit } from "toolnexus-wasm";

export function scoped(): number {
  using kit = createToolkit([relayTool("click", "Click")]);
  const disposable: Disposable = kit;
  const toolkit: Toolkit = kit;
  return toolkit.tools.length + (disposable === kit ? 0 : 1);
}
