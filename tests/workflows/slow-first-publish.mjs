// examples/workflow's Worker with the first suspension each run publishes written 300 ms late
// (its KV put), as a busy KV can be: the listing must still never show a later call of the same
// turn without it. The example's module sits beside this one (copied there by the test).
import { Agent as ExampleAgent } from "./worker.mjs";

export { default } from "./worker.mjs";

export class Agent extends ExampleAgent {
  async run(event, step) {
    const kv = this.env.OPEN;
    let first = true;
    const OPEN = {
      put: async (key, value, options) => {
        const late = first;
        first = false;
        if (late) await new Promise((r) => setTimeout(r, 300));
        return kv.put(key, value, options);
      },
      get: (...a) => kv.get(...a),
      delete: (...a) => kv.delete(...a),
      list: (...a) => kv.list(...a),
    };
    this.env = { ...this.env, OPEN };
    return super.run(event, step);
  }
}
