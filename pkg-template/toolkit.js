// @ts-check
// `Toolkit` / `createToolkit`: the tools a client offers the model. The wasm keeps each
// toolkit's decoded tools, bound to the Toolkit object itself (`toolkitId`), so only this object
// finds them: a plain object cannot pose as a toolkit. The entry goes with `free()` or once the
// toolkit is collected.

// scripts/build.sh points this import at the edge's snippet (its path holds a hash).
import { fail, kitId } from "./host.js";
import { isLoaded, whenLoaded, LATER } from "./loader.js";
import { dropToolkit, toolkitId } from "./api.js";
import { isLater } from "./declarations.js";
import { schemaTool } from "./schema-tools.js";

const kits = typeof FinalizationRegistry === "function" ? new FinalizationRegistry(dropToolkit) : undefined;

let prepare, isUnbound; // Toolkit's own, for `unbound` below

export class Toolkit {
  #tools;
  #id; // undefined: declared before the module loaded and not bound yet; 0: freed
  #binding; // the promise of binding it, once a run needed it
  #opts; // what it was made with, whose keys are checked when it binds
  /** `new Toolkit({ tools })` or `new Toolkit(tools)`: the same as `createToolkit`. */
  constructor(opts) {
    let copy;
    try {
      const list = Array.isArray(opts) ? opts : opts?.tools;
      copy = Array.isArray(list) ? list.slice() : list;
    } catch {} // a revoked Proxy, a throwing getter: refused below as no tools
    if (Array.isArray(copy)) copy = copy.map(schemaTool);
    this.#tools = copy;
    this.#opts = opts;
    // Checked and bound now when the module is in and every tool was declared after it was;
    // else when a run first needs the tools (`unbound`).
    if (isLoaded() && !(Array.isArray(copy) && copy.some(isLater))) this.#bind(copy);
  }
  static {
    prepare = (t) => t.#prepare();
    isUnbound = (t) => #id in t && t.#id === undefined;
  }
  #bind(list) {
    this.#id = toolkitId(list, this, this.#opts);
    this.#opts = undefined;
    this.#tools = list;
    kits?.register(this, this.#id, this);
  }
  // Loads the module, makes the declarations that were made before it as they are made after it
  // (one may stand for several tools, or load a module of its own: the MCP entry's), and binds.
  #prepare() {
    return (this.#binding ??= (async () => {
      await whenLoaded();
      let list = this.#tools;
      if (Array.isArray(list)) {
        list = [];
        for (const t of this.#tools) {
          const made = isLater(t) ? await t[LATER]() : t;
          if (isLater(t) && Array.isArray(made)) list.push(...made);
          else list.push(made);
        }
      }
      if (this.#id === undefined) this.#bind(list);
    })());
  }
  // bad_input, not a private-field TypeError, for a forged `this`; with `live`, for a freed one.
  static #own(t, k, live) {
    if (!(#id in Object(t))) throw fail("bad_input", `Toolkit.${k}: not a Toolkit`);
    if (live && t.#id === 0) throw fail("bad_input", `Toolkit.${k}: the toolkit was freed`);
    return t;
  }
  get tools() {
    const tools = Toolkit.#own(this, "tools").#tools;
    return Array.isArray(tools) ? tools.slice() : [];
  }
  // The relay collision guard and the duplicate-name check apply; a refused tool changes nothing.
  // Before the toolkit is bound, they apply when it is.
  add(tool) {
    const next = [...Toolkit.#own(this, "add", 1).#tools, schemaTool(tool)];
    if (this.#id === undefined) {
      this.#tools = next;
      this.#binding = undefined;
      return;
    }
    toolkitId(next, this);
    this.#tools = next;
  }
  free() {
    kits?.unregister(Toolkit.#own(this, "free"));
    if (this.#id) dropToolkit(this.#id);
    // Never bound: bound now to an id with no tools, so that a run refuses it as freed.
    else if (this.#id === undefined) kitId(this, true);
    this.#id = 0;
  }
  [Symbol.dispose]() {
    this.free();
  }
}

/**
 * The toolkits in an operation's options that were declared before the module loaded: the
 * promise of binding them all, or undefined when there is none (the common case: no await).
 */
export function unbound(...opts) {
  let list;
  for (const o of opts) {
    try {
      const t = o !== null && typeof o == "object" ? o.toolkit : undefined;
      if (t instanceof Toolkit && isUnbound(t)) (list ??= []).push(prepare(t));
    } catch {} // a throwing getter: the run's own reading refuses it
  }
  return list && Promise.all(list);
}

/** `createToolkit({ tools })` (an array of tools is accepted too); the array is copied. */
export function createToolkit(opts) {
  return new Toolkit(opts);
}
