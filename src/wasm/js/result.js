// @ts-check
// The value a run resolves to.
// A run's result: `text` has `"messages":null` where the transcript goes, and `messages` is
// the transcript's JSON, parsed on first read (most callers never read it). The accessor keeps
// the key's place, so JSON.stringify, structuredClone and spreading see it as before; a frozen
// result still reads; an assignment replaces it.
export function runResult(text, messages) {
  const o = JSON.parse(text);
  let read;
  return Object.defineProperty(o, "messages", {
    get: () => (read ? messages : ((read = 1), (messages = JSON.parse(messages)))),
    set: (x) => ((read = 1), (messages = x)),
    enumerable: true,
    configurable: true,
  });
}
