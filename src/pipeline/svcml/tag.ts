// The one tag scanner (svcml-and-prompts.md §1.1, §1.2) shared by the detector and anything else that needs
// to recognise tool tags. ASCII-only case folding; offsets are indices into the original text.
import { SVCML_WORD, TAG_MAX_CHARS, type TagKind } from "./constants";
import { decodeEntities } from "./typing";

export interface Tag {
  start: number;
  end: number;
  kind: TagKind;
  closing: boolean;
  selfClosing: boolean;
  /** The `name` attribute, entity-decoded and trimmed ("" when absent). */
  name: string;
}

export type TagScan = { type: "tag"; tag: Tag } | { type: "none"; resume: number } | { type: "partial" };

const NAMES: { word: string; kind: TagKind; needsNoise: boolean }[] = [
  { word: "tool_calls", kind: "tool_calls", needsNoise: false },
  { word: "tool-calls", kind: "tool_calls", needsNoise: true },
  { word: "invoke", kind: "invoke", needsNoise: false },
  { word: "parameter", kind: "parameter", needsNoise: false },
];

const lower = (c: number) => (c >= 65 && c <= 90 ? c + 32 : c);
const isPipe = (ch: string | undefined) => ch === "|" || ch === "｜";
const isWs = (ch: string | undefined) => ch === " " || ch === "\t" || ch === "\r" || ch === "\n";

/** ASCII case-insensitive comparison of s[i…] with a lower-case word; returns matched length (may be partial at end). */
function matchWord(s: string, i: number, word: string): { full: boolean; partial: boolean } {
  let k = 0;
  while (k < word.length && i + k < s.length) {
    if (lower(s.charCodeAt(i + k)) !== word.charCodeAt(k)) return { full: false, partial: false };
    k++;
  }
  if (k === word.length) return { full: true, partial: false };
  return { full: false, partial: true };
}

/** Where scanning resumes after a non-tag: the next `<` after the leading run of `<`. */
function resumeAfter(s: string, i: number): number {
  let j = i;
  while (s[j] === "<") j++;
  const next = s.indexOf("<", j);
  return next < 0 ? s.length : next;
}

/** Scans a possible tool tag starting at s[i] === "<". `final`: no more input will come. */
export function scanTag(s: string, i: number, final: boolean): TagScan {
  const none = (): TagScan => ({ type: "none", resume: resumeAfter(s, i) });
  const partial = (): TagScan => (final ? none() : { type: "partial" });
  let j = i;
  while (s[j] === "<") j++;
  let closing = false;
  if (s[j] === "/") {
    closing = true;
    j++;
  }
  let noise = 0;
  // noise units
  for (;;) {
    if (j >= s.length) return partial();
    if (j - i > TAG_MAX_CHARS) return none();
    const ch = s[j];
    if (isPipe(ch) || isWs(ch)) {
      j++;
      noise++;
      continue;
    }
    const w = matchWord(s, j, SVCML_WORD);
    if (w.full) {
      j += SVCML_WORD.length;
      noise++;
      if (s[j] === "-" || s[j] === "_") {
        // `svcml_tool_calls` glues through `_`; only take the separator when a name follows it.
        const after = j + 1;
        if (after >= s.length) return partial();
        if (NAMES.some((n) => matchWord(s, after, n.word).full || matchWord(s, after, n.word).partial)) j = after;
      }
      continue;
    }
    if (w.partial) {
      // Could still be the noise word, or a name starting the same way: undecided.
      if (!NAMES.some((n) => matchWord(s, j, n.word).full)) return partial();
    }
    break;
  }
  // NAME
  let found: (typeof NAMES)[number] | null = null;
  let anyPartial = false;
  for (const n of NAMES) {
    if (n.needsNoise && noise === 0) continue;
    const m = matchWord(s, j, n.word);
    if (m.full) {
      found = n;
      break;
    }
    if (m.partial) anyPartial = true;
  }
  if (!found) return anyPartial ? partial() : none();
  j += found.word.length;
  if (j >= s.length) return partial();
  const b = s[j];
  if (!(isWs(b) || b === ">" || b === "/" || isPipe(b))) return none();
  let pipes = 0;
  while (isPipe(s[j])) {
    j++;
    pipes++;
  }
  const afterName = j;
  // REST: up to the first `>` outside quotes.
  let quote: string | null = null;
  for (let k = j; ; k++) {
    if (k - i > TAG_MAX_CHARS) return none();
    if (k >= s.length) {
      if (!final) return { type: "partial" };
      if (pipes > 0) return tag(s, i, afterName, afterName, found.kind, closing);
      return none();
    }
    const ch = s[k];
    if (quote) {
      if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === ">") return tag(s, i, afterName, k + 1, found.kind, closing);
    else if (ch === "<") {
      if (pipes > 0) return tag(s, i, afterName, afterName, found.kind, closing);
      return none();
    }
  }
}

function tag(s: string, start: number, attrFrom: number, end: number, kind: TagKind, closing: boolean): TagScan {
  const inner = s.slice(attrFrom, end).replace(/>$/, "");
  const selfClosing = /\/\s*$/.test(inner) && s[end - 1] === ">";
  const m = /(?:^|[\s|｜"'])name\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(inner);
  const name = m ? decodeEntities(m[1] ?? m[2] ?? "").trim() : "";
  return { type: "tag", tag: { start, end, kind, closing, selfClosing, name } };
}
