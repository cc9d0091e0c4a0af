// The Worker wrangler bundles: the workerd entry (the .wasm imported as a module).
import { roundTrip } from "./app.js";

export default {
  async fetch() {
    try {
      return Response.json(await roundTrip());
    } catch (e) {
      return Response.json({ error: String(e?.stack ?? e) }, { status: 500 });
    }
  },
};
