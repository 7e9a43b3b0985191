// A nesting limit for JSON bodies (issue 15). JSON.parse copes with deep input, but whatever walks the
// value afterwards recursively (structuredClone in config import, canonical JSON, validators) can overflow
// the stack: 100,000 nested arrays made /admin/config/import answer 500. No request the gateway serves
// needs more than a few dozen levels, so deeper bodies are refused before they are parsed.

export const MAX_JSON_DEPTH = 128;

/** True when the JSON text in `bytes` opens more than `max` arrays/objects at once (strings skipped). */
export function jsonDepthExceeds(bytes: Uint8Array, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === 0x5c) i++; // backslash: the next byte is escaped, whatever it is
      else if (b === 0x22) inString = false;
      continue;
    }
    if (b === 0x22) inString = true;
    else if (b === 0x5b || b === 0x7b) {
      if (++depth > max) return true;
    } else if (b === 0x5d || b === 0x7d) depth--;
  }
  return false;
}
