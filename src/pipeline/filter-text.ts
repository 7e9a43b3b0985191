// Content-filter signals that arrive as text (core-upstream §7.11): the leaked upper-case CONTENT_FILTER
// marker and the input refusal sentence, plus the object-level filter signals shared by both stream paths.

export const LEAK_MARKER = "CONTENT_FILTER";
const REFUSAL_PHRASES = ["系统检测到", "敏感内容", "无法响应"];

/**
 * The leaked-marker cut of one piece: text from the first upper-case CONTENT_FILTER on is dropped, trailing
 * spaces/tabs/CR trimmed, and a remainder of only whitespace without a newline dropped. Case-sensitive:
 * lower-case `content_filter` is ordinary model text.
 */
export function cutLeak(piece: string): { text: string; leaked: boolean } {
  const at = piece.indexOf(LEAK_MARKER);
  if (at < 0) return { text: piece, leaked: false };
  let text = piece.slice(0, at).replace(/[ \t\r]+$/, "");
  if (!/\S/.test(text) && !text.includes("\n")) text = "";
  return { text, leaked: true };
}

/** The input refusal sentence: its whitespace-free form holds all three key phrases. */
export function isRefusalSentence(text: string): boolean {
  // Taking the whitespace out makes no new character: an answer without 系 cannot hold the first phrase (nearly
  // every answer; the rest of the test copies the text).
  if (!text.includes("系")) return false;
  if (!text.includes("系统检测到") && !/\s/.test(text)) return false;
  const compact = text.replace(/\s+/g, "");
  return REFUSAL_PHRASES.every((p) => compact.includes(p));
}

/**
 * A filter verdict carried by an object (any depth): `{"code":"content_filter"}`, or an object whose string
 * `p` contains `status` and whose string `v` is CONTENT_FILTER (both case-insensitive).
 */
export function hasFilterSignal(v: unknown, depth = 0): boolean {
  if (!v || typeof v !== "object" || depth > 32) return false;
  if (Array.isArray(v)) {
    for (const x of v) if (x && typeof x === "object" && hasFilterSignal(x, depth + 1)) return true;
    return false;
  }
  const o = v as Record<string, unknown>;
  if (typeof o.code === "string" && o.code.toLowerCase() === "content_filter") return true;
  if (typeof o.p === "string" && o.p.includes("status") && typeof o.v === "string" && o.v.toLowerCase() === "content_filter") return true;
  for (const k in o) {
    const x = o[k];
    if (x && typeof x === "object" && hasFilterSignal(x, depth + 1)) return true;
  }
  return false;
}

/**
 * The leaked-marker cut over a stream of deltas: a delta may end inside the marker (`…CONTENT_`), so a
 * trailing piece that could still become it (and the spaces before it) is held back until the next delta or
 * the end.
 */
export class LeakGuard {
  private held = "";

  push(piece: string): { text: string; leaked: boolean } {
    const s = this.held + piece;
    this.held = "";
    const cut = cutLeak(s);
    if (cut.leaked) return cut;
    let hold = partialMarkerLength(s);
    if (hold > 0) {
      // The spaces before a possible marker are held too: the cut trims them if it is one.
      while (hold < s.length && isTrimmable(s.charCodeAt(s.length - hold - 1))) hold++;
      this.held = s.slice(s.length - hold);
      return { text: s.slice(0, s.length - hold), leaked: false };
    }
    return { text: s, leaked: false };
  }

  flush(): string {
    const s = this.held;
    this.held = "";
    return s;
  }
}

const isTrimmable = (c: number) => c === 32 || c === 9 || c === 13;

/** Length of the longest proper prefix of the marker that ends `s`. */
function partialMarkerLength(s: string): number {
  const last = s.charCodeAt(s.length - 1);
  // Only upper-case letters and `_` occur in the marker: most deltas end elsewhere and cost one comparison.
  if (!((last >= 65 && last <= 90) || last === 95)) return 0;
  for (let k = Math.min(LEAK_MARKER.length - 1, s.length); k > 0; k--) if (LEAK_MARKER.startsWith(s.slice(s.length - k))) return k;
  return 0;
}
