// The svcml detector's scan buffer (svcml-and-prompts.md §2.8: no rescan, no whole-buffer concatenation per
// chunk). Every push appends, and the engine copies the whole string the first time the appended one is read:
// a buffer that kept text already dealt with would make each push cost the input so far (quadratic). So text
// before the first position still needed is dropped. Text a later slice may still need moves to `kept`, which
// covers the positions [-keptLen, 0).
//
// Every position into the buffer is a Cursor: it remembers its input offset and reads as an index into `text`
// through the buffer's origin, so dropping or restoring text moves the origin alone and no position has to be
// moved by hand (none can be forgotten).
export class ScanBuffer {
  text = "";
  /** The input offset of text[0]: what was dropped, less what was put back. */
  origin = 0;
  private kept: string[] = [];
  private keptLen = 0;

  append(chunk: string): void {
    this.text += chunk;
  }

  /** A position in this buffer, at index `at` now; without one, a cleared cursor (Cursor.clear). */
  cursor(at?: number): Cursor {
    const c = new Cursor(this, at ?? 0);
    if (at === undefined) c.clear();
    return c;
  }

  /**
   * Drops the text before `floor`; the part from `keepFrom` (clamped at 0) up to `floor` is kept for slices.
   * A non-negative keepFrom first forgets what was kept before (it lies before keepFrom). Returns the delta by
   * which every index moves (-floor); cursors follow by themselves.
   */
  drop(floor: number, keepFrom: number): number {
    if (keepFrom >= 0) this.forgetKept();
    if (keepFrom < floor) {
      const part = this.text.slice(Math.max(keepFrom, 0), floor);
      this.kept.push(part);
      this.keptLen += part.length;
    }
    this.text = this.text.slice(floor);
    this.origin += floor;
    return -floor;
  }

  /** Puts the kept text back in front, so that every position is non-negative again; returns the delta. */
  restore(): number {
    if (this.keptLen === 0) return 0;
    const delta = this.keptLen;
    this.text = this.kept.join("") + this.text;
    this.origin -= delta;
    this.forgetKept();
    return delta;
  }

  /** text[from, to) where from may lie in the kept text (negative). */
  slice(from: number, to: number): string {
    if (from >= 0) return this.text.slice(from, to);
    // Only the kept parts that reach back to `from` are joined: linear in the text asked for.
    let need = -from;
    let k = this.kept.length;
    while (need > 0 && k > 0) need -= this.kept[--k]!.length;
    const tail = this.kept.slice(k).join("");
    return tail.slice(tail.length + from) + this.text.slice(0, to);
  }

  /** Forgets the kept text (a block ended: nothing before it is sliced again). */
  forgetKept(): void {
    // Nothing kept is the usual case (every block end): no new array then.
    if (this.kept.length === 0) return;
    this.kept = [];
    this.keptLen = 0;
  }
}

/** What a cursor reads its index through: the input offset of the buffer's first character. */
export interface Origin {
  readonly origin: number;
}

/**
 * A position in the scan buffer, read and written as an index into its text (negative: in the kept text).
 * It holds the input offset, so it stays on the same character whatever the buffer drops or puts back. A
 * cleared cursor (no position) holds the offset -1, before all input: it reads as a negative index, so `>= 0`
 * tests still say "none", whatever is dropped or restored (a relative -1 would turn into a real index after a
 * restore). Offsets stay small integers: an Infinity sentinel would make the engine treat every offset as a
 * double, on the path of every push.
 */
export class Cursor {
  private offset: number;

  constructor(
    private readonly buffer: Origin,
    at: number,
  ) {
    this.offset = buffer.origin + at;
  }

  get at(): number {
    return this.offset - this.buffer.origin;
  }

  set at(index: number) {
    this.offset = this.buffer.origin + index;
  }

  /** No position: the cursor reads a negative index until set again. */
  clear(): void {
    this.offset = -1;
  }
}
