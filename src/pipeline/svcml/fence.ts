// Markdown fence tracking (svcml-and-prompts.md §1.3), fed one character at a time so that it sees every
// released character whatever the chunking. One level only; an unclosed fence lasts to the end.

const isAlnum = (ch: string) => /[A-Za-z0-9]/.test(ch);

export class FenceTracker {
  /** lines: share the detector's, so that trackers over one buffer do not search the same stretch again. */
  constructor(private readonly lines = new NewlineCache()) {}

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

  /** Feeds s[from, to). Mid-line characters change nothing, so the scan jumps from newline to newline. */
  feedRange(s: string, from: number, to: number): void {
    let i = from;
    while (i < to) {
      if (!this.lineStart && !this.collecting) {
        const nl = this.lines.within(s, i, to);
        if (nl < 0) return;
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

/**
 * The last newline search in one text: no newline in [from, at) and one at `at` (at = length: none). The
 * detector feeds one buffer in many small ranges, through its own tracker and a fresh one per CDATA value;
 * searching on to the end of the line every time would be quadratic on a long line (stray tags in prose, a
 * whole answer without newlines). The detector's trackers share one, so each stretch is searched once.
 */
export class NewlineCache {
  private text = "";
  private from = 0;
  private at = -1;

  /** The first newline in s[from, to), or -1. */
  within(s: string, from: number, to: number): number {
    // A search that ends at the end of s anyway (a whole short text) is not worth remembering.
    if (to >= s.length) return s.indexOf("\n", from);
    if (!(from >= this.from && from <= this.at && s === this.text)) {
      const found = s.indexOf("\n", from);
      this.text = s;
      this.from = from;
      this.at = found < 0 ? s.length : found;
    }
    return this.at < to ? this.at : -1;
  }
}
