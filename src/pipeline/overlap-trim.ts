// The continuation overlap trim (continue.json `trim_rule`): the line-extractor path has no fragment ids, so
// a continue round's snapshot that re-sends everything is recognised by prefix. Lengths are UTF-8 bytes.

export const OVERLAP_MIN_BYTES = 32;

/** UTF-8 byte length, stopping early once `limit` is reached (only the threshold matters). */
function utf8LengthAtLeast(s: string, limit: number): boolean {
  if (s.length >= limit) return true; // every UTF-16 unit is at least one byte
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4; // a surrogate pair is one 4-byte code point
      i++;
    } else n += 3;
    if (n >= limit) return true;
  }
  return false;
}

/** What of `incoming` is new, given the `existing` text of the same channel. */
export function overlapTrim(existing: string, incoming: string): string {
  if (incoming === "") return "";
  if (existing === "") return incoming;
  if (!utf8LengthAtLeast(incoming, OVERLAP_MIN_BYTES)) return incoming;
  if (incoming.length >= existing.length && incoming.startsWith(existing)) return incoming.slice(existing.length);
  if (existing.startsWith(incoming)) return "";
  return incoming;
}
