// @ts-check
// `toolnexus-wasm/web-storage`: a conversation store over Web Storage for pages. A module of
// its own (not in the default entry), so only pages that keep conversations in localStorage
// load it. Import it beside the main entry, which initialises the wasm `checkRevision` uses.
import { checkRevision } from "./exports.js";
// The package's one error helper; scripts/build.sh points this import at the edge's snippet.
import { fail } from "./host.js";

/**
 * Web Storage for pages: `localStorage` (default; survives a reload) or `sessionStorage`. Keys
 * are `prefix + id`, values JSON text. Each save is read-check-write with no await inside, under
 * a Web Lock per conversation where `navigator.locks` exists, so two tabs of one origin cannot
 * both resume one halted run: the second save gets `conflict`.
 */
export function localStorageStore({ storage = globalThis.localStorage, prefix = "toolnexus:" } = {}) {
  if (typeof storage?.getItem !== "function") throw fail("bad_input", "localStorageStore needs Web Storage (localStorage is not available here)");
  const get = async (id) => JSON.parse(storage.getItem(prefix + id) ?? "null") ?? undefined;
  return {
    get,
    async save(id, state) {
      const write = async () => {
        checkRevision(await get(id), state);
        storage.setItem(prefix + id, JSON.stringify(state));
      };
      const locks = globalThis.navigator?.locks;
      await (locks ? locks.request(prefix + id, write) : write());
    },
    async delete(id) {
      storage.removeItem(prefix + id);
    },
  };
}
