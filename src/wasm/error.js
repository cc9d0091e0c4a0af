// The one class of every error the package throws, defined in a snippet so that the wasm edge
// (src/wasm/convert.rs `js_error`) constructs it directly; pkg-template/api.js re-exports this
// module, so `instanceof ToolnexusError` holds for the errors of both.
export class ToolnexusError extends Error {
  constructor(message, code, options) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ToolnexusError";
    this.code = code;
    if (options?.status !== undefined) this.status = options.status;
  }
  // Also true for an error of another copy of the package (two bundles, another realm), which
  // `instanceof` cannot see.
  static is(e) {
    return e instanceof ToolnexusError || (e !== null && typeof e === "object" && e.name === "ToolnexusError" && typeof e.code === "string");
  }
}

// For the edge: one call, plain arguments.
export function toolnexusError(message, code, status) {
  return new ToolnexusError(message, code, status === undefined ? undefined : { status });
}
