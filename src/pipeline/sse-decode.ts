// sseDecode: core's SSE bytes → frames (core-upstream §7.1). Any chunking (one byte, split UTF-8, split
// lines), LF / CRLF / CR line ends, comments, multi-line data, unbounded lines. Linear: each byte is
// scanned once; an unfinished line is kept as a list of pieces and joined only when it ends.
import type { SseFrame } from "./types";

export class SseDecoder {
  private text = new TextDecoder("utf-8");
  private pieces: string[] = [];
  private skipLF = false;
  private event = "";
  private data: string[] = [];
  private sawComment = false;

  /** Feeds bytes (or already-decoded text) and returns the frames completed by them. */
  push(chunk: Uint8Array | string): SseFrame[] {
    const s = typeof chunk === "string" ? chunk : this.text.decode(chunk, { stream: true });
    const out: SseFrame[] = [];
    let start = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 10 /* \n */ || c === 13 /* \r */) {
        if (c === 10 && this.skipLF && i === start && this.pieces.length === 0) {
          // The \n of a CRLF whose \r ended the previous line.
          this.skipLF = false;
          start = i + 1;
          continue;
        }
        this.skipLF = c === 13;
        this.pieces.push(s.slice(start, i));
        const line = this.pieces.length === 1 ? this.pieces[0]! : this.pieces.join("");
        this.pieces = [];
        this.line(line, out);
        start = i + 1;
      } else if (this.skipLF) this.skipLF = false;
    }
    if (start < s.length) this.pieces.push(s.slice(start));
    return out;
  }

  /** End of input: a final block without its blank line still counts. */
  end(): SseFrame[] {
    const out: SseFrame[] = [];
    const tail = this.text.decode();
    if (tail) this.pieces.push(tail);
    if (this.pieces.length) {
      const line = this.pieces.join("");
      this.pieces = [];
      this.line(line, out);
    }
    this.dispatch(out);
    return out;
  }

  private line(line: string, out: SseFrame[]): void {
    if (line === "") {
      this.dispatch(out);
      return;
    }
    const c0 = line.charCodeAt(0);
    if (c0 === 58 /* : */) {
      this.sawComment = true;
      return;
    }
    if (c0 === 123 /* { */ && this.data.length === 0 && this.event === "") {
      // A bare JSON envelope where a stream was expected (core-upstream §5.6, §12.13).
      out.push({ event: "raw", data: line });
      return;
    }
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
  }

  private dispatch(out: SseFrame[]): void {
    if (this.data.length) out.push({ event: this.event || "message", data: this.data.length === 1 ? this.data[0]! : this.data.join("\n") });
    else if (this.sawComment) out.push({ event: "comment", data: "", comment: true });
    else if (this.event) out.push({ event: this.event, data: "" });
    this.event = "";
    this.data = [];
    this.sawComment = false;
  }
}

export function sseDecode(): TransformStream<Uint8Array, SseFrame> {
  const d = new SseDecoder();
  return new TransformStream<Uint8Array, SseFrame>({
    transform(chunk, c) {
      for (const f of d.push(chunk)) c.enqueue(f);
    },
    flush(c) {
      for (const f of d.end()) c.enqueue(f);
    },
  });
}
