// The svcml detector's scan buffer (svcml-and-prompts.md §2.8: no rescan, no whole-buffer concatenation per
// chunk). Every push appends, and the engine copies the whole string the first time the appended one is read:
// a buffer that kept text already dealt with would make each push cost the input so far (quadratic). So text
// before the first position still needed is dropped, and every position into the buffer moves down with it
// (the detector relocates its positions by the delta these methods return). Text a later slice may still need
// moves to `kept`, which covers the positions [-keptLen, 0).
export class ScanBuffer {
  text = "";
  private kept: string[] = [];
  private keptLen = 0;

  append(chunk: string): void {
    this.text += chunk;
  }

  /**
   * Drops the text before `floor`; the part from `keepFrom` (clamped at 0) up to `floor` is kept for slices.
   * A non-negative keepFrom first forgets what was kept before (it lies before keepFrom). Returns the delta by
   * which every position moves (-floor).
   */
  drop(floor: number, keepFrom: number): number {
    if (keepFrom >= 0) this.forgetKept();
    if (keepFrom < floor) {
      const part = this.text.slice(Math.max(keepFrom, 0), floor);
      this.kept.push(part);
      this.keptLen += part.length;
    }
    this.text = this.text.slice(floor);
    return -floor;
  }

  /** Puts the kept text back in front, so that every position is non-negative again; returns the delta. */
  restore(): number {
    if (this.keptLen === 0) return 0;
    const delta = this.keptLen;
    this.text = this.kept.join("") + this.text;
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
