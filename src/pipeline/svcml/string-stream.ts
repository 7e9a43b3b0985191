// Streaming a string parameter's value while core writes it (svcml-and-prompts.md §2.5, condition S as amended):
// a CDATA value under a string-like schema is its source text C (§1.11), so each piece of it that is certain to be
// content can go to the client at once instead of when the parameter closes — a 50 KB file write shows progress.
// Every piece must be a prefix of the final value, so this holds back what a later character could still change:
// a possible `]]>` (the CDATA scan keeps the last two characters unread), a tag that may be a closing tool tag and
// the whitespace before it (the end-of-input repair of §1.6 would end the value there), a high surrogate whose pair is still to come (its JSON
// escaping would differ), and the value's blank start (a blank value does not announce a call, §1.5). Where it
// cannot tell (a closing tool tag inside the content, a `]]>` passed over inside a fence) it stops, and the rest
// goes out when the parameter closes. Positions are indexes into the detector's scan buffer (its cursors).
import { scanTag } from "./tag";
import type { Cursor } from "./scan-buffer";

export interface StringStreamSink {
  /** The first non-blank content is certain: announce the call and emit the member's head. */
  start(): void;
  /** More of the value, in order. */
  piece(text: string): void;
}

export class StringStream {
  /** Characters of the value emitted so far. */
  chars = 0;
  started = false;
  /** Stopped streaming: the rest of the value is emitted at the close. */
  stopped = false;
  /** The blank start of the value, not yet emitted. */
  private blank = "";

  /** `handled` starts where the value does; the stream moves it on. */
  constructor(
    private readonly handled: Cursor,
    private readonly sink: StringStreamSink,
  ) {}

  /** Buffer position up to which the content has been handled (emitted, or held as the blank start). */
  get emitted(): number {
    return this.handled.at;
  }

  /**
   * The buffer's content in [emitted, to) belongs to the value as far as the CDATA scan can tell; `next` is where
   * the value goes on after `to` (past a rejoined `]]><![CDATA[`), or `to` itself.
   */
  advance(s: string, to: number, next = to): void {
    if (this.stopped) return;
    const emitted = this.handled.at;
    let end = to;
    // A tool tag inside the content: a closing one could end the value at the end of input, a partial one may
    // still become one; either way nothing from it on is certain yet.
    for (let lt = s.indexOf("<", emitted); lt >= 0 && lt < end; lt = s.indexOf("<", lt + 1)) {
      const scan = scanTag(s, lt, false);
      if (scan.type === "partial") {
        end = lt;
        break;
      }
      if (scan.type === "tag" && scan.closing) {
        end = lt;
        this.stopped = true;
        break;
      }
    }
    // Trailing whitespace waits for what follows: should the input end inside the value, §1.6's repair ends the
    // value at a closing tool tag, and the value's body is trimmed there.
    while (end > emitted && isSpace(s.charCodeAt(end - 1))) end--;
    // A high surrogate at the end waits for its low half: the pair must be escaped as one character.
    if (end > emitted && end === to && isHighSurrogate(s.charCodeAt(end - 1))) end--;
    if (end > emitted) this.emit(s.slice(emitted, end));
    if (end === to) this.handled.at = next;
    else {
      this.handled.at = end;
      // Held before a rejoined section: where the value resumes would be lost, so the close emits the rest.
      if (next !== to) this.stopped = true;
    }
  }

  /** The rest of the value is emitted at the close (a `]]>` in a fence, the end of input inside the value). */
  stop(): void {
    this.stopped = true;
  }

  private emit(text: string): void {
    if (!this.started) {
      if (!hasNonBlank(text)) {
        this.blank += text;
        return;
      }
      this.started = true;
      this.sink.start();
      text = this.blank + text;
      this.blank = "";
    }
    this.chars += text.length;
    this.sink.piece(text);
  }
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/** What String.prototype.trim removes, for the characters a model writes (ASCII and no-break spaces). */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0xfeff || c === 0x2028 || c === 0x2029 || (c >= 0x2000 && c <= 0x200a) || c === 0x3000 || c === 0x1680 || c === 0x202f || c === 0x205f;
}

function hasNonBlank(t: string): boolean {
  return t.trim() !== "";
}
