// The visible-output cleaner (svcml-and-prompts.md §1.13), a streaming stage after the detector, for visible
// text and exposed thinking. It removes core's role markers in both spellings, `<think>` / `</think>`, an
// empty json fence, and (when asked) `[reference:N]`. It never touches tool markup or any other XML.
//
// One left-to-right pass over the held tail plus the new text: only the three trigger characters `<`, `[`
// and a backtick can start a pattern, so the scan jumps between them. A tail that is still a prefix of some
// pattern is held back, and never more than HOLD_MAX characters of it (a marker split across deltas is
// still removed; nothing else waits).
import { ALL_MARKERS, asciiSpelling } from "../prompt/markers";

const TAGS = [...ALL_MARKERS, ...ALL_MARKERS.map(asciiSpelling), "<think>", "</think>"];
const REFERENCE_WORD = "[reference:";
const FENCE_OPEN = "```json";
const FENCE_CLOSE = "```";
/** Spaces after the colon and digits of one reference marker, and whitespace inside an empty fence, that
 * are still worth waiting for: beyond this the tail is released as text. */
const RUN_MAX = 32;
/** The longest tail ever held back. */
export const CLEANER_HOLD_MAX = Math.max(...TAGS.map((t) => t.length), FENCE_OPEN.length + RUN_MAX + FENCE_CLOSE.length);

export interface CleanerOptions {
  /** Remove `[reference:N]` (compat.strip_reference_markers). Off by default because coreReduce already
   * strips or links reference markers upstream; on, this stage also catches any that reach it. */
  stripReferenceMarkers?: boolean;
}

/** Result of matching at one trigger position: the match length, "partial" (input ended inside a possible
 * match) or 0 (no pattern here). */
type Match = number | "partial";

const isWs = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;
const isDigit = (c: number) => c >= 48 && c <= 57;

function matchTag(s: string, i: number): Match {
  let partial = false;
  for (const t of TAGS) {
    if (s.startsWith(t, i)) return t.length;
    if (!partial && s.length - i < t.length && t.startsWith(s.slice(i))) partial = true;
  }
  return partial ? "partial" : 0;
}

/** `[reference:` (ASCII case-insensitive), spaces, digits, `]`. */
function matchReference(s: string, i: number): Match {
  let j = i;
  for (let k = 0; k < REFERENCE_WORD.length; k++, j++) {
    if (j >= s.length) return "partial";
    let c = s.charCodeAt(j);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== REFERENCE_WORD.charCodeAt(k)) return 0;
  }
  const runStart = j;
  while (j < s.length && s.charCodeAt(j) === 32) j++;
  const digitsStart = j;
  while (j < s.length && isDigit(s.charCodeAt(j))) j++;
  if (j - runStart > RUN_MAX) return 0;
  if (j >= s.length) return "partial";
  if (j === digitsStart || s.charCodeAt(j) !== 93) return 0;
  return j + 1 - i;
}

/** ```json, only whitespace, then ``` . */
function matchEmptyFence(s: string, i: number): Match {
  for (let k = 0; k < FENCE_OPEN.length; k++) {
    if (i + k >= s.length) return "partial";
    if (s.charCodeAt(i + k) !== FENCE_OPEN.charCodeAt(k)) return 0;
  }
  let j = i + FENCE_OPEN.length;
  const runStart = j;
  while (j < s.length && isWs(s.charCodeAt(j))) j++;
  if (j - runStart > RUN_MAX) return 0;
  for (let k = 0; k < FENCE_CLOSE.length; k++, j++) {
    if (j >= s.length) return "partial";
    if (s.charCodeAt(j) !== 96) return 0;
  }
  return j - i;
}

export class VisibleCleaner {
  private held = "";
  private readonly references: boolean;
  private nextLt = -1;
  private nextTick = -1;
  private nextBracket = -1;

  constructor(opts: CleanerOptions = {}) {
    this.references = opts.stripReferenceMarkers ?? false;
  }

  push(text: string): string {
    return this.run(this.held + text, false);
  }

  flush(): string {
    return this.run(this.held, true);
  }

  private run(s: string, final: boolean): string {
    this.held = "";
    this.nextLt = this.nextTick = this.nextBracket = -1;
    let out = "";
    let copied = 0;
    let i = 0;
    while (i < s.length) {
      const at = this.nextTrigger(s, i);
      if (at < 0) break;
      const c = s.charCodeAt(at);
      const m: Match = c === 60 ? matchTag(s, at) : c === 91 ? matchReference(s, at) : matchEmptyFence(s, at);
      if (m === "partial") {
        if (!final && s.length - at <= CLEANER_HOLD_MAX) {
          out += s.slice(copied, at);
          this.held = s.slice(at);
          return out;
        }
        i = at + 1;
      } else if (m > 0) {
        out += s.slice(copied, at);
        copied = i = at + m;
      } else i = at + 1;
    }
    return out + s.slice(copied);
  }

  /** The next `<`, backtick or (when references are stripped) `[` at or after `from`. Each character's next
   * position is cached, so a run of one trigger kind never rescans the text for the others. */
  private nextTrigger(s: string, from: number): number {
    if (this.nextLt < from) this.nextLt = indexOrEnd(s, "<", from);
    if (this.nextTick < from) this.nextTick = indexOrEnd(s, "`", from);
    if (this.references && this.nextBracket < from) this.nextBracket = indexOrEnd(s, "[", from);
    const best = Math.min(this.nextLt, this.nextTick, this.references ? this.nextBracket : Infinity);
    return best >= s.length ? -1 : best;
  }
}

function indexOrEnd(s: string, ch: string, from: number): number {
  const at = s.indexOf(ch, from);
  return at < 0 ? s.length : at;
}
