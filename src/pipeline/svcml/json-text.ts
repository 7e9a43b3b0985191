// JSON text of argument members, on the detector's hot path.

/**
 * JSON.stringify, with short plain strings (names, paths, words: most members) quoted directly. The native
 * call costs more than the check for a string of a few dozen characters.
 */
export function jsonOf(v: unknown): string {
  if (typeof v !== "string" || v.length > 64) return JSON.stringify(v);
  for (let k = 0; k < v.length; k++) {
    const c = v.charCodeAt(k);
    // Control characters, quote, backslash and surrogates (a lone one is escaped) need the full rules.
    if (c < 32 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(v);
  }
  return `"${v}"`;
}
