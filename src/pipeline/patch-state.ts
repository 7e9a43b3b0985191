// The patch reducer's state tree (core-upstream §7.4): snapshots, sticky path and op, BATCH with relative
// paths and op inheritance, negative indices resolved at application time, SET / APPEND semantics.

import { RopeBound } from "../util/rope-bound";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Container = Json[] | { [k: string]: Json };

const INT = /^-?\d+$/;

export class PatchState {
  root: { response?: Record<string, Json> } & Record<string, Json> = {};
  private path: string | undefined;
  private op: string | undefined;
  /**
   * The string the last `apply` appended, and where. A reader that wants what is new in a growing field reads
   * this instead of slicing the field: the field is a rope of every token so far, and slicing it flattens the
   * whole rope, once per token — quadratic in the answer's length (issue 17).
   */
  lastAppend: { container: object; key: string; piece: string } | null = null;
  /** The field strings are appended to, and its RopeBound: core appends to one field at a time. */
  private growing: { container: object; key: string; bound: RopeBound } | null = null;

  /** A new round (its `ready` event): sticky path and op start over; the state itself is kept. */
  resetSticky(): void {
    this.path = undefined;
    this.op = undefined;
  }

  get response(): Record<string, Json> | undefined {
    const r = this.root.response;
    return r && typeof r === "object" && !Array.isArray(r) ? r : undefined;
  }

  static isSnapshot(payload: Record<string, unknown>): boolean {
    const v = payload.v;
    if (!v || typeof v !== "object" || Array.isArray(v) || !("response" in (v as object))) return false;
    // Exactly one key, `v`: counted without building a key array for every token (issue 17).
    let keys = 0;
    for (const _ in payload) if (++keys > 1) return false;
    return true;
  }

  /** Applies one `message` payload. */
  apply(payload: Record<string, unknown>): void {
    this.lastAppend = null;
    if (PatchState.isSnapshot(payload)) {
      this.root = { response: (payload.v as { response: Record<string, Json> }).response };
      return;
    }
    if (typeof payload.p === "string") this.path = payload.p;
    if (typeof payload.o === "string") this.op = payload.o;
    if (this.path === undefined || !("v" in payload)) return;
    const op = (this.op ?? "SET").toUpperCase();
    if (op === "BATCH") {
      if (!Array.isArray(payload.v)) return;
      let subOp = "SET";
      for (const sub of payload.v) {
        if (!sub || typeof sub !== "object") continue;
        const s = sub as Record<string, unknown>;
        if (typeof s.o === "string") subOp = s.o.toUpperCase();
        const rel = typeof s.p === "string" ? s.p : "";
        const full = rel ? (this.path ? `${this.path}/${rel}` : rel) : this.path;
        this.applyAt(full, subOp, s.v as Json);
      }
      return;
    }
    this.applyAt(this.path, op, payload.v as Json);
  }

  /** Split paths: core repeats a handful of paths (the sticky one above all) for every token. */
  private readonly segments = new Map<string, string[]>();

  private segmentsOf(path: string): string[] {
    let segs = this.segments.get(path);
    if (!segs) {
      if (this.segments.size >= 64) this.segments.clear();
      segs = path.split("/").filter((s) => s !== "");
      this.segments.set(path, segs);
    }
    return segs;
  }

  private applyAt(path: string, op: string, value: Json): void {
    const segs = this.segmentsOf(path);
    if (segs.length === 0) return;
    let cur: Container = this.root as Container;
    for (let i = 0; i < segs.length - 1; i++) {
      const seg = segs[i]!;
      if (Array.isArray(cur)) {
        if (!INT.test(seg)) return;
        const idx = resolveIndex(cur, Number(seg));
        if (idx < 0) return;
        const next = cur[idx];
        if (!next || typeof next !== "object") return;
        cur = next as Container;
      } else {
        let next = cur[seg];
        if (!next || typeof next !== "object") {
          next = {};
          cur[seg] = next;
        }
        cur = next as Container;
      }
    }
    const last = segs[segs.length - 1]!;
    if (Array.isArray(cur)) {
      if (!INT.test(last)) return;
      const idx = resolveIndex(cur, Number(last));
      if (idx < 0) return;
      cur[idx] = combine(cur[idx], op, value);
      this.lastAppend = null;
    } else {
      const next = combine(cur[last], op, value);
      cur[last] = next;
      // A string grown by a string: an APPEND onto an array (pushes) or a replaced value is not one.
      this.lastAppend = op === "APPEND" && typeof value === "string" && typeof next === "string" ? { container: cur, key: last, piece: value } : null;
      if (this.lastAppend) this.grew(cur, last, next as string, value as string);
    }
  }

  private grew(container: object, key: string, text: string, piece: string): void {
    const g = this.growing;
    if (g && g.container === container && g.key === key) {
      g.bound.grew(text, piece.length);
      return;
    }
    const bound = new RopeBound();
    bound.reset(text.length - piece.length);
    bound.grew(text, piece.length);
    this.growing = { container, key, bound };
  }
}

function resolveIndex(arr: unknown[], i: number): number {
  const idx = i < 0 ? arr.length + i : i;
  return idx >= 0 && idx < arr.length ? idx : -1;
}

function combine(existing: Json | undefined, op: string, value: Json): Json {
  if (op !== "APPEND") return value;
  if (existing === undefined || existing === null) return value;
  if (typeof existing === "string" && typeof value === "string") return existing + value;
  if (Array.isArray(existing)) {
    if (Array.isArray(value)) existing.push(...value);
    else existing.push(value);
    return existing;
  }
  return value;
}
