// Conversation stores over host storage. A store is any object with async get(id),
// save(id, state) and delete(id); `state` is plain, versioned JSON (ConversationState).

/**
 * chrome.storage.local (default) or .session, for MV3 extensions. Keys are `prefix + id`.
 * chrome.storage is looked up at each call, so the store can be made anywhere and used in any
 * extension context (service worker, side panel, offscreen document).
 */
export function chromeStorageStore({ area = "local", prefix = "toolnexus:" } = {}) {
  if (area !== "local" && area !== "session") throw storeError("bad_input", 'chromeStorageStore: area must be "local" or "session"');
  const storage = () => {
    const s = globalThis.chrome?.storage?.[area];
    if (!s) throw storeError("store", `chrome.storage.${area} is not available here (an MV3 extension context with the "storage" permission is needed)`);
    return s;
  };
  return {
    async get(id) {
      const key = prefix + id;
      return (await storage().get(key))[key];
    },
    async save(id, state) {
      await storage().set({ [prefix + id]: state });
    },
    async delete(id) {
      await storage().remove(prefix + id);
    },
  };
}

/**
 * A Workers KV namespace binding. KV is eventually consistent across locations: right for one
 * conversation driven by one client at a time. `expirationTtl` (seconds, at least 60) is renewed
 * on every save.
 */
export function kvStore(namespace, { prefix = "toolnexus:", expirationTtl } = {}) {
  for (const m of ["get", "put", "delete"]) {
    if (typeof namespace?.[m] !== "function") throw storeError("bad_input", `kvStore needs a KV namespace binding (it has no ${m}())`);
  }
  if (expirationTtl !== undefined && !(typeof expirationTtl === "number" && expirationTtl >= 60)) {
    throw storeError("bad_input", "kvStore: expirationTtl must be a number of seconds, at least 60");
  }
  return {
    async get(id) {
      return (await namespace.get(prefix + id, "json")) ?? undefined;
    },
    async save(id, state) {
      await namespace.put(prefix + id, JSON.stringify(state), expirationTtl ? { expirationTtl } : undefined);
    },
    async delete(id) {
      await namespace.delete(prefix + id);
    },
  };
}

function storeError(code, message) {
  const e = new Error(message);
  e.name = "ToolnexusError";
  e.code = code;
  return e;
}
