// The prom-client classes the gateway uses, required from their own files: the package's index also loads its
// Pushgateway (node:http, node:https, node:zlib, node:url), default metrics and cluster aggregator, ≈ 65 ms of
// a cold start the gateway never needs (issue 35). Same classes, same behaviour; the types are the package's.
// The default process metrics are required on first use (`loadDefaultMetrics`): their module loads
// @opentelemetry/api, node:perf_hooks, node:v8 and node:fs, none of which a start needs before it listens.
import type * as Prom from "prom-client";

/* eslint-disable @typescript-eslint/no-require-imports */
export const Registry = require("prom-client/lib/registry") as typeof Prom.Registry;
export const Counter = require("prom-client/lib/counter") as typeof Prom.Counter;
export const Gauge = require("prom-client/lib/gauge") as typeof Prom.Gauge;
export const Histogram = require("prom-client/lib/histogram") as typeof Prom.Histogram;
/** The process metrics the operator's /metrics shows (issue 31); their module loads no network code. */
export function loadDefaultMetrics(): typeof Prom.collectDefaultMetrics {
  return require("prom-client/lib/defaultMetrics") as typeof Prom.collectDefaultMetrics;
}
export type Registry = Prom.Registry;
export type Counter<T extends string = string> = Prom.Counter<T>;
export type Gauge<T extends string = string> = Prom.Gauge<T>;
export type Histogram<T extends string = string> = Prom.Histogram<T>;

// Per-request observations without prom-client's per-call work (issue 35: ≈ 2.3 % of the main thread): every
// `inc`/`observe` builds the label set's hash string from the sorted label names, checks every label name
// against the declared ones, allocates the label object, a closure and a pair, and (histograms) turns the
// bucket bound into a property name. The series below keep, per label values key the caller builds, the very
// entry prom-client created for that label set on its first observation and update it in place — the same
// fields prom-client's own code updates, so the exposition is the library's. The entry is used only while it
// is still the one in the metric's map (a reset replaces the map: the next call goes through prom-client again).

/** What prom-client keeps per label set: counters `{ value, labels }`, histograms `{ labels, bucketValues, sum, count }`. */
interface Entry {
  value: number;
  sum: number;
  count: number;
  bucketValues: Record<string, number>;
}
interface Internals {
  hashMap: Record<string, Entry>;
  sortedLabelNames: string[];
}
interface Cached {
  hash: string;
  entry: Entry;
}

/** prom-client's label-set hash (util.js fastHashObject): `name:value,` for each defined label, names sorted. */
function promHash(sorted: string[], labels: Record<string, string>): string {
  let hash = "";
  for (const k of sorted) if (labels[k] !== undefined) hash += `${k}:${labels[k]},`;
  return hash;
}

/** Bounds the cache: the label values are bounded by design (metrics.ts), this only guards against a mistake. */
const MAX_CACHED = 10_000;

export class CounterSeries<T extends string> {
  private readonly cache = new Map<string, Cached>();
  constructor(readonly metric: Counter<T>) {}

  /**
   * Adds `value` to the series `key` names (a unique join of its label values) when it was seen before; false
   * otherwise, and the caller calls `first` with the label object (none is built on the common path).
   */
  inc(key: string, value: number): boolean {
    const c = this.cache.get(key);
    // prom-client's own checks (a finite, non-negative value) stay on its path.
    if (c === undefined || (this.metric as unknown as Internals).hashMap[c.hash] !== c.entry || !(value >= 0) || value === Infinity) return false;
    c.entry.value += value;
    return true;
  }

  /** `metric.inc(labels, value)`, remembering the entry it made for `key`. */
  first(key: string, labels: Partial<Record<T, string>>, value: number): void {
    const { labelHash } = this.metric.inc(labels, value) as unknown as { labelHash: string };
    const entry = (this.metric as unknown as Internals).hashMap[labelHash];
    if (entry !== undefined && this.cache.size < MAX_CACHED) this.cache.set(key, { hash: labelHash, entry });
  }
}

export class HistogramSeries<T extends string> {
  private readonly cache = new Map<string, Cached>();
  private readonly bounds: number[];
  /** The bucket bounds as prom-client's `bucketValues` keys (String(bound)), so no number is converted per call. */
  private readonly keys: string[];
  constructor(readonly metric: Histogram<T>) {
    this.bounds = (metric as unknown as { upperBounds: number[] }).upperBounds;
    this.keys = this.bounds.map(String);
  }

  /** Observes `value` in the series `key` names when it was seen before; false otherwise (then `first`). */
  observe(key: string, value: number): boolean {
    const c = this.cache.get(key);
    if (c === undefined || (this.metric as unknown as Internals).hashMap[c.hash] !== c.entry || !Number.isFinite(value)) return false;
    const e = c.entry;
    e.sum += value;
    e.count += 1;
    // histogram.js findBound: the first bound ≥ value; above the last, only count (+Inf) moves.
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        e.bucketValues[this.keys[i]!]! += 1;
        break;
      }
    }
    return true;
  }

  /** `metric.observe(labels, value)`, remembering the entry it made for `key`. */
  first(key: string, labels: Partial<Record<T, string>>, value: number): void {
    this.metric.observe(labels, value);
    const m = this.metric as unknown as Internals;
    const hash = promHash(m.sortedLabelNames, labels as Record<string, string>);
    const entry = m.hashMap[hash];
    if (entry !== undefined && this.cache.size < MAX_CACHED) this.cache.set(key, { hash, entry });
  }
}
