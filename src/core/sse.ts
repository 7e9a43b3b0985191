// Core's SSE bytes → frames (core-upstream §7.1), decoded ONCE, in core/ (issue 17): the core client joins
// rounds on these frames and hands them on; nothing downstream re-parses bytes. Any chunking (one byte, split
// UTF-8, split lines), LF / CRLF / CR line ends, comments, multi-line data, unbounded lines, linear time
// (LineSplitter). Two additions to the SSE standard, both needed by the gateway:
// - a block made only of comment lines is surfaced as a keep-alive frame ({comment: true}), because core's
//   `: ` keep-alives are what keeps a slow answer alive downstream;
// - a line starting with `{` outside any block is a bare JSON envelope sent instead of a stream (§5.6,
//   §7.13); it is surfaced as a frame with event "raw" so the stages can classify it.
// A final block without its blank line still counts: core ends rounds by closing the body.
import { LineSplitter, type LineSink } from "./line-splitter";
import { none, pushed } from "../util/none";

/** One SSE frame as decoded from core's byte stream. */
export interface SseFrame {
  /** `event:` name; "message" when the block had no event line. */
  event: string;
  /** `data:` lines joined by "\n" (SSE standard); "" for a block with only comments. */
  data: string;
  /** True for a block made only of comment lines (": " keep-alives). */
  comment?: boolean;
  /** The data parsed as a JSON object (null: not one), once frameJson() has looked: parsed once per frame. */
  json?: Record<string, unknown> | null;
}

/** The frame's data as a JSON object, or null; parsed at most once per frame whoever asks first. */
export function frameJson(frame: SseFrame): Record<string, unknown> | null {
  if (frame.json !== undefined) return frame.json;
  const token = bareStringValue(frame.data, 0, frame.data.length);
  if (token !== undefined) return (frame.json = { v: token });
  let v: unknown = null;
  const c0 = frame.data.charCodeAt(0);
  // Only `{` (after optional blanks) can start an object: skip the parser's exception for anything else.
  if (c0 === 123 || c0 === 32 || c0 === 9) {
    try {
      v = JSON.parse(frame.data);
    } catch {
      v = null;
    }
  }
  frame.json = v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  return frame.json;
}

/**
 * The value of `{"v":"…"}` when the string has nothing to unescape, else undefined. Nearly every frame of an
 * answer is one token in exactly this form; reading it by its characters costs a fifth of JSON.parse (issue 17,
 * bench/core-frames.ts). Anything else — an escape, a control character, a space, another key — is left to the
 * parser, so the result is always what JSON.parse would give.
 */
export function bareStringValue(d: string, from: number, to: number): string | undefined {
  const a = from;
  const end = to - 2;
  if (end < a + 6) return undefined;
  // {"v":"  …  "}
  if (d.charCodeAt(a) !== 123 || d.charCodeAt(a + 1) !== 34 || d.charCodeAt(a + 2) !== 118 || d.charCodeAt(a + 3) !== 34 || d.charCodeAt(a + 4) !== 58 || d.charCodeAt(a + 5) !== 34) return undefined;
  if (d.charCodeAt(end) !== 34 || d.charCodeAt(end + 1) !== 125) return undefined;
  for (let i = a + 6; i < end; i++) {
    const c = d.charCodeAt(i);
    if (c === 34 || c === 92 || c < 32) return undefined;
  }
  return d.slice(a + 6, end);
}

/** decode()'s options, one object for every call: a literal per call made it twice as slow (a chunk per token). */
const STREAMING: TextDecodeOptions = { stream: true };

export class SseDecoder implements LineSink {
  private readonly text = new TextDecoder("utf-8");
  private readonly lines = new LineSplitter();
  private event = "";
  /** The block's data lines: the first on its own (nearly every block has one), the others in a list. */
  private firstData: string | undefined;
  private moreData: string[] | null = null;
  private sawComment = false;
  private sawField = false;
  /** The frames completed so far by this push (the shared empty list until one is). */
  private out: SseFrame[] = none();
  /** The block's only data line read as a plain token (bareStringValue) while its characters were at hand. */
  private token: string | undefined;

  /** Feeds bytes (or already-decoded text) and returns the frames completed by them. */
  push(chunk: Uint8Array | string): SseFrame[] {
    const s = typeof chunk === "string" ? chunk : this.text.decode(chunk, STREAMING);
    this.lines.push(s, this);
    return this.take();
  }

  /** End of input: flushes a split UTF-8 tail, the last line and the last block. */
  end(): SseFrame[] {
    const tail = this.text.decode();
    if (tail) this.lines.push(tail, this);
    this.lines.end(this);
    this.dispatch();
    return this.take();
  }

  private emit(frame: SseFrame): void {
    this.out = pushed(this.out, frame);
  }

  private take(): SseFrame[] {
    const out = this.out;
    this.out = none();
    return out;
  }

  /**
   * One line: `s` from `start` to `end`. Read by position in the decoded chunk, not sliced out first: a slice
   * is a view that the engine copies out the first time a character of it is read, and core sends a line per
   * token (issue 17: SSE decoding was a third of a burst's CPU).
   * Public for LineSplitter only: the decoder is its sink.
   */
  line(s: string, start: number, end: number): void {
    if (start === end) {
      this.dispatch();
      return;
    }
    const c0 = s.charCodeAt(start);
    if (c0 === 58 /* : */) {
      this.sawComment = true;
      return;
    }
    if (c0 === 123 /* { */ && !this.sawField) {
      this.emit({ event: "raw", data: s.slice(start, end) });
      return;
    }
    this.sawField = true;
    // `data:` is nearly every line core sends: recognised by its characters, without slicing out the field name.
    if (c0 === 100 /* d */ && s.charCodeAt(start + 4) === 58 && s.startsWith("data", start)) {
      const from = start + 5 < end && s.charCodeAt(start + 5) === 32 ? start + 6 : start + 5;
      this.addData(s.slice(from, end), this.firstData === undefined ? bareStringValue(s, from, end) : undefined);
      return;
    }
    const line = s.slice(start, end);
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === "data") this.addData(value, undefined);
    else if (field === "event") this.event = value;
    // id, retry and unknown fields: nothing the gateway needs.
  }

  private addData(value: string, token: string | undefined): void {
    if (this.firstData === undefined) {
      this.firstData = value;
      this.token = token;
    } else {
      (this.moreData ??= []).push(value);
      this.token = undefined;
    }
  }

  private dispatch(): void {
    const first = this.firstData;
    if (first !== undefined) {
      const event = this.event || "message";
      if (this.moreData) this.emit({ event, data: `${first}\n${this.moreData.join("\n")}` });
      else if (this.token !== undefined) this.emit({ event, data: first, json: { v: this.token } });
      else this.emit({ event, data: first });
    } else if (this.event) this.emit({ event: this.event, data: "" });
    else if (this.sawComment) this.emit({ event: "comment", data: "", comment: true });
    this.event = "";
    this.firstData = undefined;
    this.moreData = null;
    this.token = undefined;
    this.sawComment = false;
    this.sawField = false;
  }
}

