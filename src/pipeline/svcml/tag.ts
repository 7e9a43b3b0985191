// The one tag scanner (svcml-and-prompts.md §1.1, §1.2) shared by the detector and anything else that needs
// to recognise tool tags. ASCII-only case folding; offsets are indices into the original text, never into a
// lower-cased copy. Works on char codes without allocating until a tag is found: it runs on every `<`.
import { CDATA_OPENER, COMMENT_OPENER, SVCML_WORD, TAG_MAX_CHARS, type TagKind } from "./constants";
import { decodeEntities } from "./typing";

export interface Tag {
  /** A scan result that is a tag is the Tag itself (one object per tag on the hot path). */
  type: "tag";
  start: number;
  end: number;
  kind: TagKind;
  closing: boolean;
  selfClosing: boolean;
  /** The `name` attribute, entity-decoded and trimmed ("" when absent). */
  name: string;
}

export type TagScan = Tag | { type: "none"; resume: number } | { type: "partial" };

const PARTIAL: TagScan = { type: "partial" };

interface NameWord {
  word: string;
  kind: TagKind;
  /** `tool-calls` is only a name on svcml-like tags (at least one noise unit read). */
  needsNoise: boolean;
}

const NAMES: NameWord[] = [
  { word: "tool_calls", kind: "tool_calls", needsNoise: false },
  { word: "tool-calls", kind: "tool_calls", needsNoise: true },
  { word: "invoke", kind: "invoke", needsNoise: false },
  { word: "parameter", kind: "parameter", needsNoise: false },
];

const SVCML_FIRST = SVCML_WORD.charCodeAt(0);
const LT = 60;
const GT = 62;
const SLASH = 47;
const PIPE = 124;
const FULLWIDTH_PIPE = 0xff5c;

export const isPipeCode = (c: number) => c === PIPE || c === FULLWIDTH_PIPE;
export const isWsCode = (c: number) => c === 32 || c === 9 || c === 13 || c === 10;
const lower = (c: number) => (c >= 65 && c <= 90 ? c + 32 : c);

/** Matches a lower-case ASCII word at s[i…]: 1 full match, 0 partial (input ended inside it), -1 mismatch. */
function matchWord(s: string, i: number, word: string): 1 | 0 | -1 {
  const n = word.length;
  for (let k = 0; k < n; k++) {
    if (i + k >= s.length) return 0;
    if (lower(s.charCodeAt(i + k)) !== word.charCodeAt(k)) return -1;
  }
  return 1;
}

/** The name word that may start with char code c (lower-cased): the first letter decides. */
function candidates(c: number): readonly NameWord[] {
  switch (c) {
    case 116: // t
      return TOOL_NAMES;
    case 105: // i
      return INVOKE_NAMES;
    case 112: // p
      return PARAMETER_NAMES;
    default:
      return NO_NAMES;
  }
}
const TOOL_NAMES = NAMES.slice(0, 2);
const INVOKE_NAMES = NAMES.slice(2, 3);
const PARAMETER_NAMES = NAMES.slice(3, 4);
const NO_NAMES: readonly NameWord[] = [];

/** Whether a name (full or partial) starts at s[i]. */
function nameMayStart(s: string, i: number): boolean {
  const list = candidates(lower(s.charCodeAt(i)));
  for (let n = 0; n < list.length; n++) if (matchWord(s, i, list[n]!.word) >= 0) return true;
  return false;
}

/** Where scanning resumes after a non-tag: the next `<` after the leading run of `<`. */
function resumeAfter(s: string, i: number): number {
  let j = i;
  while (s.charCodeAt(j) === LT) j++;
  const next = s.indexOf("<", j);
  return next < 0 ? s.length : next;
}

/** Scans a possible tool tag starting at s[i] === "<". `final`: no more input will come. */
export function scanTag(s: string, i: number, final: boolean): TagScan {
  return canonicalTag(s, i) ?? (!final && canonicalPrefix(s, i) ? PARTIAL : scanAnyTag(s, i, final));
}

// The canonical spellings the prompt teaches, which are nearly every tag core writes. Matching them by char
// code is several times cheaper than the general walk below, and gives the same Tag: each accepted form is
// one the general scanner reads the same way (same kind, end, closing flag and name).
const OPEN = "<|svcml|";
const CLOSE = "</|svcml|";
const NAME_ATTR = ' name="';
const CANONICAL_FORMS = [
  `${OPEN}tool_calls>`,
  `${CLOSE}tool_calls>`,
  `${OPEN}invoke${NAME_ATTR}`,
  `${CLOSE}invoke>`,
  `${OPEN}parameter${NAME_ATTR}`,
  `${CLOSE}parameter>`,
];

/**
 * Whether the input ends inside a canonical tag (s[i…] is a proper prefix of one, or a name attribute
 * still open): the stream split a tag, which the general scanner would also report as partial.
 */
function canonicalPrefix(s: string, i: number): boolean {
  const rest = s.length - i;
  if (rest > TAG_MAX_CHARS) return false;
  for (let f = 0; f < CANONICAL_FORMS.length; f++) {
    const form = CANONICAL_FORMS[f]!;
    // The form's first `n` characters at s[i] (no slice: this runs at every chunk boundary inside markup).
    const n = rest < form.length ? rest : form.length;
    let k = 0;
    while (k < n && s.charCodeAt(i + k) === form.charCodeAt(k)) k++;
    if (k < n) continue;
    if (rest < form.length) return true;
    if (form.charCodeAt(form.length - 1) === 34 && s.indexOf('"', i + form.length) < 0) return true;
  }
  return false;
}

/**
 * Whether lit occurs in s at i. Char codes rather than startsWith: startsWith with a position is slow when
 * the text ends before the literal does, which is every chunk boundary inside a tag.
 */
function matchAt(s: string, i: number, lit: string): boolean {
  const n = lit.length;
  if (i + n > s.length) return false;
  for (let k = 0; k < n; k++) if (s.charCodeAt(i + k) !== lit.charCodeAt(k)) return false;
  return true;
}

/** A canonical complete tag at s[i], or null (the general scanner then decides, including partial input). */
export function canonicalTag(s: string, i: number): Tag | null {
  const second = s.charCodeAt(i + 1);
  if (second === PIPE) {
    if (!matchAt(s, i, OPEN)) return null;
    const j = i + OPEN.length;
    switch (s.charCodeAt(j)) {
      case 116: // t
        return matchAt(s, j, "tool_calls>") ? found(i, j + "tool_calls>".length, "tool_calls", false, "") : null;
      case 105: // i
        return matchAt(s, j, "invoke") ? namedOpen(s, i, j + "invoke".length, "invoke") : null;
      case 112: // p
        return matchAt(s, j, "parameter") ? namedOpen(s, i, j + "parameter".length, "parameter") : null;
    }
    return null;
  }
  if (second !== SLASH || !matchAt(s, i, CLOSE)) return null;
  const j = i + CLOSE.length;
  switch (s.charCodeAt(j)) {
    case 112: // p
      return closingTag(s, i, j, "parameter");
    case 105: // i
      return closingTag(s, i, j, "invoke");
    case 116: // t
      return closingTag(s, i, j, "tool_calls");
  }
  return null;
}

const CLOSING_FORMS: Record<TagKind, string> = {
  tool_calls: `${CLOSE}tool_calls>`,
  invoke: `${CLOSE}invoke>`,
  parameter: `${CLOSE}parameter>`,
};

/** The end of the canonical closing tag of `kind` at s[i] (`</|svcml|kind>`), or -1: no Tag needed. */
export function canonicalCloseEnd(s: string, i: number, kind: TagKind): number {
  const form = CLOSING_FORMS[kind];
  return matchAt(s, i, form) ? i + form.length : -1;
}

/** `</|svcml|name>` with `name` starting at j. */
function closingTag(s: string, start: number, j: number, kind: TagKind): Tag | null {
  if (!matchAt(s, j, kind) || s.charCodeAt(j + kind.length) !== GT) return null;
  return found(start, j + kind.length + 1, kind, true, "");
}

/** `<|svcml|invoke name="…">` with the name attribute first and `>` right after its closing quote. */
function namedOpen(s: string, start: number, j: number, kind: TagKind): Tag | null {
  if (!matchAt(s, j, NAME_ATTR)) return null;
  const q = j + NAME_ATTR.length;
  const close = s.indexOf('"', q);
  if (close < 0 || s.charCodeAt(close + 1) !== GT || close + 1 - start > TAG_MAX_CHARS) return null;
  const raw = s.slice(q, close);
  return found(start, close + 2, kind, false, (raw.includes("&") ? decodeEntities(raw) : raw).trim());
}

function found(start: number, end: number, kind: TagKind, closing: boolean, name: string): Tag {
  return { type: "tag", start, end, kind, closing, selfClosing: false, name };
}

/** The general scanner, without the canonical fast path (exported so tests can check they agree). */
export function scanAnyTag(s: string, i: number, final: boolean): TagScan {
  const len = s.length;
  let j = i;
  while (j < len && s.charCodeAt(j) === LT) j++;
  let closing = false;
  if (j < len && s.charCodeAt(j) === SLASH) {
    closing = true;
    j++;
  }
  let noise = 0;
  // Noise units: pipes, whitespace, the svcml word (optionally followed by `-` or `_` before a name).
  for (;;) {
    if (j >= len) return final ? none(s, i) : PARTIAL;
    if (j - i > TAG_MAX_CHARS) return none(s, i);
    const c = s.charCodeAt(j);
    if (isPipeCode(c) || isWsCode(c)) {
      j++;
      noise++;
      continue;
    }
    const w = lower(c) === SVCML_FIRST ? matchWord(s, j, SVCML_WORD) : -1;
    if (w === 1) {
      j += SVCML_WORD.length;
      noise++;
      const sep = s.charCodeAt(j);
      if (sep === 45 || sep === 95) {
        // `svcml_tool_calls` glues through `_`; the separator is taken only when a name follows it.
        if (j + 1 >= len) return final ? none(s, i) : PARTIAL;
        if (nameMayStart(s, j + 1)) j++;
      }
      continue;
    }
    if (w === 0) return final ? none(s, i) : PARTIAL;
    break;
  }
  let found: NameWord | null = null;
  let anyPartial = false;
  const list = candidates(lower(s.charCodeAt(j)));
  for (let x = 0; x < list.length; x++) {
    const n = list[x]!;
    if (n.needsNoise && noise === 0) continue;
    const m = matchWord(s, j, n.word);
    if (m === 1) {
      found = n;
      break;
    }
    if (m === 0) anyPartial = true;
  }
  if (!found) return anyPartial && !final ? PARTIAL : none(s, i);
  j += found.word.length;
  if (j >= len) return final ? none(s, i) : PARTIAL;
  const b = s.charCodeAt(j);
  if (!(isWsCode(b) || b === GT || b === SLASH || isPipeCode(b))) return none(s, i);
  let pipes = 0;
  while (j < len && isPipeCode(s.charCodeAt(j))) {
    j++;
    pipes++;
  }
  const afterName = j;
  // REST: up to the first `>` outside quotes; trailing pipes make a following `<` (or the end) imply `>`.
  let quote = 0;
  for (let k = j; ; k++) {
    if (k - i > TAG_MAX_CHARS) return none(s, i);
    if (k >= len) {
      if (!final) return PARTIAL;
      if (pipes > 0) return makeTag(s, i, afterName, afterName, found.kind, closing);
      return none(s, i);
    }
    const c = s.charCodeAt(k);
    if (quote) {
      if (c === quote) quote = 0;
      continue;
    }
    if (c === 34 || c === 39) quote = c;
    else if (c === GT) return makeTag(s, i, afterName, k + 1, found.kind, closing);
    else if (c === LT) {
      if (pipes > 0) return makeTag(s, i, afterName, afterName, found.kind, closing);
      return none(s, i);
    }
  }
}

function none(s: string, i: number): TagScan {
  return { type: "none", resume: resumeAfter(s, i) };
}

function makeTag(s: string, start: number, attrFrom: number, end: number, kind: TagKind, closing: boolean): TagScan {
  const explicitEnd = end > attrFrom && s.charCodeAt(end - 1) === GT;
  const attrTo = explicitEnd ? end - 1 : end;
  let selfClosing = false;
  if (explicitEnd) {
    let k = attrTo - 1;
    while (k >= attrFrom && isWsCode(s.charCodeAt(k))) k--;
    selfClosing = k >= attrFrom && s.charCodeAt(k) === SLASH;
  }
  const name = closing ? "" : nameAttribute(s, attrFrom, attrTo);
  return { type: "tag", start, end, kind, closing, selfClosing, name };
}

/**
 * The `name` attribute in s[from, to): `key = "value"` or `key = 'value'`, key case-insensitive, spaces
 * around `=` allowed, unquoted values not recognised. The value is entity-decoded once and trimmed.
 */
export function nameAttribute(s: string, from: number, to: number): string {
  let k = from;
  while (k < to) {
    const c = s.charCodeAt(k);
    if (isWsCode(c) || isPipeCode(c) || c === SLASH) {
      k++;
      continue;
    }
    if (c === 34 || c === 39) {
      // A stray quoted run: skip it whole so that nothing inside it reads as a key.
      const close = s.indexOf(c === 34 ? '"' : "'", k + 1);
      k = close < 0 || close >= to ? to : close + 1;
      continue;
    }
    const keyStart = k;
    while (k < to) {
      const d = s.charCodeAt(k);
      if (isWsCode(d) || d === 61 || d === 34 || d === 39 || d === SLASH || isPipeCode(d)) break;
      k++;
    }
    const isName = k - keyStart === 4 && matchWord(s, keyStart, "name") === 1;
    if (k === keyStart) k++;
    while (k < to && isWsCode(s.charCodeAt(k))) k++;
    if (k >= to || s.charCodeAt(k) !== 61) continue;
    k++;
    while (k < to && isWsCode(s.charCodeAt(k))) k++;
    const q = s.charCodeAt(k);
    if (q !== 34 && q !== 39) continue;
    const close = s.indexOf(q === 34 ? '"' : "'", k + 1);
    if (close < 0 || close >= to) return "";
    if (isName) {
      const raw = s.slice(k + 1, close);
      return (raw.includes("&") ? decodeEntities(raw) : raw).trim();
    }
    k = close + 1;
  }
  return "";
}


/** Whether a CDATA opener (case-insensitive) starts at s[i]: 1 yes, 0 the input ends inside one, -1 no. */
export function matchCdataOpener(s: string, i: number): 1 | 0 | -1 {
  return matchWord(s, i, CDATA_OPENER);
}

/** Whether `<!--` starts at s[i]: 1 yes, 0 the input ends inside one, -1 no. */
export function matchCommentOpener(s: string, i: number): 1 | 0 | -1 {
  return matchWord(s, i, COMMENT_OPENER);
}

export const CDATA_OPENER_LENGTH = CDATA_OPENER.length;
