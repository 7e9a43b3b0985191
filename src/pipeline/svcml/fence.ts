// Markdown fence tracking (svcml-and-prompts.md §1.3), fed one character at a time so that it sees every
// released character whatever the chunking. One level only; an unclosed fence lasts to the end.

const isAlnum = (ch: string) => /[A-Za-z0-9]/.test(ch);

export class FenceTracker {
  inFence = false;
  private fenceChar = "";
  private fenceLen = 0;
  private lineStart = true;
  private runChar = "";
  private runLen = 0;
  private collecting = false;

  /** Counts as non-blank content on the current line (a confirmed block ends here). */
  markContent(): void {
    this.settleRun("x");
    this.lineStart = false;
  }

  feed(ch: string): void {
    if (ch === "\n") {
      this.settleRun("\n");
      this.lineStart = true;
      return;
    }
    if (this.collecting) {
      if (ch === this.runChar) {
        this.runLen++;
        return;
      }
      this.settleRun(ch);
      return;
    }
    if (this.lineStart) {
      if (ch === " " || ch === "\t" || ch === "\r") return;
      this.lineStart = false;
      if (ch === "`" || ch === "~") {
        this.collecting = true;
        this.runChar = ch;
        this.runLen = 1;
      }
    }
  }

  feedText(s: string): void {
    this.feedRange(s, 0, s.length);
  }

  // The next newline found in the last string searched: the detector feeds one buffer in many small ranges,
  // and searching past `to` again on every call would be quadratic on a long line (stray tags in prose).
  private nlText = "";
  private nlAt = -1;

  /** Feeds s[from, to). Mid-line characters change nothing, so the scan jumps from newline to newline. */
  feedRange(s: string, from: number, to: number): void {
    let i = from;
    while (i < to) {
      if (!this.lineStart && !this.collecting) {
        let nl: number;
        if (i <= this.nlAt && s === this.nlText) nl = this.nlAt;
        else {
          const found = s.indexOf("\n", i);
          nl = found < 0 ? s.length : found;
          // Remembered only for a range of a longer string (the buffer), not for whole short texts.
          if (to < s.length) {
            this.nlText = s;
            this.nlAt = nl;
          }
        }
        if (nl >= to) return;
        i = nl;
      }
      this.feed(s[i]!);
      i++;
    }
  }

  /** A run at line start ends at `next`: it may open or close a fence. */
  private settleRun(next: string): void {
    if (!this.collecting) return;
    this.collecting = false;
    if (this.runLen < 3) return;
    if (!this.inFence) {
      this.inFence = true;
      this.fenceChar = this.runChar;
      this.fenceLen = this.runLen;
    } else if (this.runChar === this.fenceChar && this.runLen >= this.fenceLen && !isAlnum(next)) {
      this.inFence = false;
    }
  }

  /** Whether `ch` at the current position would be inside a fence (without consuming it). */
  wouldBeInFence(ch: string): boolean {
    if (!this.collecting || this.runLen < 3) return this.inFence;
    if (!this.inFence) return true;
    if (this.runChar === this.fenceChar && this.runLen >= this.fenceLen && !isAlnum(ch)) return false;
    return true;
  }
}
