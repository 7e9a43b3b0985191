// The patch reducer's state tree (core-upstream §7.4): snapshots, sticky path and op, BATCH with relative
// paths and op inheritance, negative indices resolved at application time, SET / APPEND semantics.

import { RopeBound } from "../util/rope-bound";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Container = Json[] | { [k: string]: Json };

const INT = /^-?\d+$/;

/**
 * Split paths, shared by every state: core repeats a handful of paths (the sticky one above all) for every token,
 * the same ones in every answer. Read only; cleared when it holds 64, so odd paths cannot make it grow.
 */
const segments = new Map<string, string[]>();

export class PatchState {
  root: { response?: Record<string, Json> } & Record<string, Json> = {};
  private path: string | undefined;
  private op: string | undefined;
  /**
   * The string the last `apply` appended, and where. A reader that wants what is new in a growing field reads
   * this instead of slicing the field: the field is a rope of every token so far, and slicing it flattens the
   * whole rope, once per token — quadratic in the answer's length (issue 17).
   */
  // Kept as fields, not an object per append (issue 35: one more object per open stream, and one per token).
  private appendContainer: object | null = null;
  private appendKey = "";
  private appendPiece = "";
  /** The field strings are appended to, and its RopeBound: core appends to one field at a time. */
  private growContainer: object | null = null;
  private growKey = "";
  private growBound: RopeBound | null = null;

  /** The last `apply` appended a string to a field (the one `appendedTo` names). */
  get appending(): boolean {
    return this.appendContainer !== null;
  }

  /** What the last `apply` appended to `container[key]`, if it appended to that field. */
  appendedTo(container: object, key: string): string | undefined {
    return this.appendContainer === container && this.appendKey === key ? this.appendPiece : undefined;
  }

  /** The string the last `apply` appended and where, as one object (for a reader that wants all three). */
  get lastAppend(): { container: object; key: string; piece: string } | null {
    return this.appendContainer ? { container: this.appendContainer, key: this.appendKey, piece: this.appendPiece } : null;
  }

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
    this.appendContainer = null;
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

  private segmentsOf(path: string): string[] {
    let segs = segments.get(path);
    if (!segs) {
      if (segments.size >= 64) segments.clear();
      segs = path.split("/").filter((s) => s !== "");
      segments.set(path, segs);
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
      this.appendContainer = null;
    } else {
      const next = combine(cur[last], op, value);
      cur[last] = next;
      // A string grown by a string: an APPEND onto an array (pushes) or a replaced value is not one.
      if (op === "APPEND" && typeof value === "string" && typeof next === "string") {
        this.appendContainer = cur;
        this.appendKey = last;
        this.appendPiece = value;
        this.grew(cur, last, next, value);
      } else this.appendContainer = null;
    }
  }

  private grew(container: object, key: string, text: string, piece: string): void {
    const bound = (this.growBound ??= new RopeBound());
    if (this.growContainer !== container || this.growKey !== key) {
      // Another field grows now: counted afresh from what it held before this piece.
      this.growContainer = container;
      this.growKey = key;
      bound.reset(text.length - piece.length);
    }
    bound.grew(text, piece.length);
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
