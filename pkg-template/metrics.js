// @ts-check
// `client.metrics()`: cumulative counters and histograms of the client's metric events (the
// core's `llm`, `tool` and `run` events, the ones `onMetric` gets), rendered as Prometheus text
// byte-identical to the reference ports: fixed metric order, series sorted by their label text,
// fixed buckets, escaped label values, a trailing newline. The core decides what is measured
// and when (src/metrics.rs); aggregating and rendering is the host's, here, where JS writes
// numbers as the reference's `String(n)` does. In the wasm it cost 2.3 KB gzip of the default
// entry (docs/decisions/size.md).

const BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** @type {[name: string, help: string, kind: "counter" | "histogram", labels: string[]][]} */
const METRICS = [
  ["toolnexus_llm_requests_total", "Total LLM requests.", "counter", ["model", "status"]],
  ["toolnexus_llm_tokens_total", "Total tokens, by type.", "counter", ["type"]],
  ["toolnexus_llm_request_duration_seconds", "LLM request duration in seconds.", "histogram", ["model"]],
  ["toolnexus_tool_calls_total", "Total tool calls.", "counter", ["tool", "source", "is_error", "pending"]],
  ["toolnexus_tool_duration_seconds", "Tool execution duration in seconds.", "histogram", ["tool"]],
  ["toolnexus_run_errors_total", "Total run errors.", "counter", ["model"]],
];

/** One client's registry. */
export class Metrics {
  constructor() {
    /** @type {Map<string, { labels: string[], value: number, counts: number[], sum: number }>[]} per metric, series by key */
    this.series = METRICS.map(() => new Map());
  }

  /** Adds one metric event (as `onMetric` gets it). */
  record(/** @type {any} */ e) {
    const ms = (/** @type {any} */ v) => (typeof v == "number" ? v / 1000 : 0);
    if (e?.event == "llm") {
      this.bump(0, [e.model, e.status], 1);
      if (e.status == "ok") {
        this.bump(1, ["prompt"], e.promptTokens);
        this.bump(1, ["completion"], e.completionTokens);
        // Series of their own only once a cache is used, so a run without one renders as before.
        if (e.cacheReadTokens > 0) this.bump(1, ["cache_read"], e.cacheReadTokens);
        if (e.cacheWriteTokens > 0) this.bump(1, ["cache_write"], e.cacheWriteTokens);
      }
      this.observe(2, [e.model], ms(e.ms));
    } else if (e?.event == "tool") {
      this.bump(3, [e.tool, e.source, String(!!e.isError), String(!!e.pending)], 1);
      this.observe(4, [e.tool], ms(e.ms));
    } else if (e?.event == "run" && e.error) {
      this.bump(5, [e.model], 1);
    }
  }

  /** The series of metric `i` with these label values, created empty on first use. */
  at(/** @type {number} */ i, /** @type {unknown[]} */ values) {
    const labels = values.map(String);
    const key = JSON.stringify(labels);
    let s = this.series[i].get(key);
    if (!s) this.series[i].set(key, (s = { labels, value: 0, counts: BUCKETS.map(() => 0), sum: 0 }));
    return s;
  }

  bump(/** @type {number} */ i, /** @type {unknown[]} */ values, /** @type {unknown} */ by) {
    this.at(i, values).value += typeof by == "number" ? by : 0;
  }

  observe(/** @type {number} */ i, /** @type {unknown[]} */ values, /** @type {number} */ seconds) {
    const s = this.at(i, values);
    s.sum += seconds;
    s.value++;
    BUCKETS.forEach((b, k) => seconds <= b && s.counts[k]++);
  }

  /** The Prometheus text. */
  render() {
    let out = "";
    const line = (/** @type {string} */ name, /** @type {string} */ labels, /** @type {unknown} */ v) => (out += `${name}${labels && `{${labels}}`} ${v}\n`);
    METRICS.forEach(([name, help, kind, names], i) => {
      out += `# HELP ${name} ${help}\n# TYPE ${name} ${kind}\n`;
      const series = [...this.series[i].values()].map((s) => /** @type {const} */ ([text(names, s.labels), s]));
      for (const [key, s] of series.sort((a, b) => byCodePoints(a[0], b[0]))) {
        if (kind == "counter") {
          line(name, key, s.value);
          continue;
        }
        const le = (/** @type {unknown} */ b) => `${key && key + ","}le="${b}"`;
        BUCKETS.forEach((b, k) => line(`${name}_bucket`, le(b), s.counts[k]));
        line(`${name}_bucket`, le("+Inf"), s.value);
        line(`${name}_sum`, key, s.sum);
        line(`${name}_count`, key, s.value);
      }
    });
    return out;
  }
}

/** `k="v",k="v"`, the values escaped (backslash, quote, newline). */
const text = (/** @type {string[]} */ names, /** @type {string[]} */ values) =>
  names.map((k, i) => `${k}="${values[i].replace(/[\\"\n]/g, (c) => (c == "\n" ? "\\n" : "\\" + c))}"`).join(",");

/** Orders as the reference does: by code point (UTF-16 order differs past U+FFFF). */
function byCodePoints(/** @type {string} */ a, /** @type {string} */ b) {
  const [x, y] = [[...a], [...b]];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = /** @type {number} */ (x[i].codePointAt(0)) - /** @type {number} */ (y[i].codePointAt(0));
    if (d) return d;
  }
  return x.length - y.length;
}

// Each client's registry, set by createClient for the client it returns.
const registries = new WeakMap();

/** `client` counts into `registry`. */
export const meter = (/** @type {object} */ client, /** @type {Metrics} */ registry) => registries.set(client, registry);

/** The registry of `client`, if createClient made it. */
export const metricsOf = (/** @type {object} */ client) => /** @type {Metrics | undefined} */ (registries.get(client));

/**
 * The client's options with an `onMetric` that records into `registry` before it calls the
 * caller's own. Options the wasm will refuse (not an object, an `onMetric` that is no function)
 * are left as they are, so its message names the mistake.
 */
export function measured(/** @type {any} */ options, /** @type {Metrics} */ registry) {
  try {
    const own = options?.onMetric;
    if (options !== null && typeof options == "object" && !Array.isArray(options) && (own === undefined || typeof own == "function")) {
      return { ...options, onMetric: (/** @type {unknown} */ e) => (registry.record(e), own?.(e)) };
    }
  } catch {} // a revoked Proxy, a throwing getter: the wasm refuses the original
  return options;
}
