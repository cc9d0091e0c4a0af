// Makes EventStream an async iterable (`for await (const event of client.stream(...))`).
// wasm-bindgen classes cannot declare symbol-named methods, so the entry files add it here.
import { EventStream } from "./toolnexus_wasm.js";

EventStream.prototype[Symbol.asyncIterator] = function () {
  return this;
};
