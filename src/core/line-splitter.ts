// Text → lines with LF, CRLF and CR line ends (the SSE standard's three), for any chunking. Linear: every
// character is looked at once, an unfinished line is kept as a list of pieces and joined only when it ends
// (so a 2 MiB line fed one byte at a time costs O(n), not O(n²)), and a CRLF split across chunks is one end.

import { none, pushed } from "../util/none";

const LF = 10;
const CR = 13;

/** Who takes the lines: an object with a method, so a decoder is its own sink (no closure per stream, issue 35). */
export interface LineSink {
  line(text: string, start: number, end: number): void;
}

export class LineSplitter {
  private pieces: string[] = none();
  /** The previous chunk ended on a CR: a LF at the start of the next one belongs to it. */
  private afterCR = false;

  /**
   * Feeds decoded text; calls `sink.line` for every line completed by it, in order, as a range of a string: a line
   * inside `s` is handed as `s` and its bounds (no slice made for it), a line joined from earlier pieces whole.
   */
  push(s: string, sink: LineSink): void {
    let start = 0;
    if (this.afterCR && s.length > 0) {
      this.afterCR = false;
      if (s.charCodeAt(0) === LF) start = 1;
    }
    // Next positions of each line end; -2 = not searched yet, -1 = none left in this chunk. Caching both
    // keeps the scan linear when a chunk holds many LF lines and no CR (or the reverse).
    let nextLF = -2;
    let nextCR = -2;
    while (start < s.length) {
      if (nextLF !== -1 && nextLF < start) nextLF = s.indexOf("\n", start);
      if (nextCR !== -1 && nextCR < start) nextCR = s.indexOf("\r", start);
      const end = nextLF === -1 ? nextCR : nextCR === -1 ? nextLF : Math.min(nextLF, nextCR);
      if (end === -1) break;
      const lineStart = start;
      let text: string | null = null;
      if (this.pieces.length > 0) {
        this.pieces.push(s.slice(start, end));
        text = this.pieces.join("");
        this.pieces = none();
      }
      start = end + 1;
      if (s.charCodeAt(end) === CR) {
        if (start < s.length) {
          if (s.charCodeAt(start) === LF) start++;
        } else this.afterCR = true;
      }
      if (text === null) sink.line(s, lineStart, end);
      else sink.line(text, 0, text.length);
    }
    if (start < s.length) this.pieces = pushed(this.pieces, start === 0 ? s : s.slice(start));
  }

  /** End of input: an unterminated last line still counts. */
  end(sink: LineSink): void {
    this.afterCR = false;
    if (this.pieces.length === 0) return;
    const text = this.pieces.join("");
    this.pieces = none();
    sink.line(text, 0, text.length);
  }
}
