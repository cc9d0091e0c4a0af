// @ts-check
// The event stream of `client.stream`, `streamWithAnswer` and `translateStream`, and its
// backpressure (`drained`: host calls wait for the consumer).
import { fail } from "./errors.js";
import { runResult } from "./result.js";
import { guard } from "./signal.js";

// The async iterable that `client.stream`, `streamWithAnswer` and `translateStream` return.
// The wasm pushes each item as JSON text; api.js ends the stream once the run's promise settles
// (with the error of a failed run). Items queue until `next()` takes them, so a consumer slower
// than the model loses nothing.
// Backpressure: the run starts no host call (a model call, a tool, `waitFor`, a store save)
// while items wait here (`drained`), so a `pending` event has been taken by `next()` before its
// `waitFor` runs, and what is buffered is at most one model reply's events. Leaving the stream
// (`break`, `return()`, a throw in a `for await` body) aborts the run through its signal.
export class EventStream {
  #items = [];
  #end; // [] once the run ended, [error] when it failed
  #wait; // [resolve, reject] of the `next()` that is waiting
  #closed = false;
  #stop; // aborts the run (runSignal)
  #drain = []; // resolvers of host calls waiting for the consumer to take every item
  // An event's JSON text, or (`done`) its result's two texts (`runResult`).
  push(text, messages) {
    if (this.#closed) return;
    this.#items.push(messages === undefined ? text : [text, messages]);
    this.#deliver();
  }
  end(error) {
    this.#end ??= error === undefined ? [] : [error];
    this.#deliver();
  }
  // `{ value, done: false }` per item, then `{ done: true }`; a failed run rejects once.
  next() {
    return new Promise((resolve, reject) => {
      if (this.#wait) return reject(fail("bad_input", "EventStream.next() called again before the previous call settled"));
      this.#wait = [resolve, reject];
      this.#deliver();
    });
  }
  // The consumer left: nothing more is delivered, and the run is aborted (its fetch, tools and
  // parked `waitFor` calls see the signal; no new model call or tool starts).
  return() {
    this.#closed = true;
    this.#items = [];
    this.#end = [];
    this.#stop?.(); // host calls waiting for the stream to drain see the abort
    this.#deliver();
    return Promise.resolve({ value: undefined, done: true });
  }
  [Symbol.asyncIterator]() {
    return this;
  }
  // Called by runSignal with the run's signal and its abort.
  bind(s, stop) {
    s[STREAM] = this;
    this.#stop = stop;
    if (this.#closed) stop();
  }
  // `undefined` when every item was taken, else a promise that resolves once it has been.
  drained() {
    return this.#items.length ? new Promise((r) => this.#drain.push(r)) : undefined;
  }
  #deliver() {
    const w = this.#wait;
    if (!w) return;
    if (this.#items.length) {
      try {
        const t = this.#items.shift();
        w[0]({ value: typeof t === "string" ? JSON.parse(t) : { type: "done", result: runResult(...t) }, done: false });
      } catch (e) {
        w[1](e);
      }
      if (!this.#items.length) this.#drain.splice(0).map((r) => r());
    } else if (this.#end?.length) {
      w[1](this.#end[0]);
      this.#end = [];
    } else if (this.#end) {
      w[0]({ value: undefined, done: true });
    } else return;
    this.#wait = undefined;
  }
}

// Resolves once the run's stream (if any) has handed every event to its consumer, a few
// microtasks later (a consumer that takes its event and leaves, with `break`, does so first);
// rejects when the run is aborted by then.
const STREAM = Symbol();
export function drained(s) {
  return (
    s?.[STREAM] &&
    guard(s[STREAM].drained(), s).then(() => {
      if (s.aborted) throw s.reason;
    })
  );
}
