// JSON text of argument members, on the detector's hot path.

/**
 * JSON.stringify, with the common member values written directly: short plain strings (names, paths,
 * words), numbers, booleans and null. The native call costs more than these checks for values this small.
 */
export function jsonOf(v: unknown): string {
  switch (typeof v) {
    case "string":
      return v.length <= 64 && isPlain(v) ? `"${v}"` : JSON.stringify(v);
    case "number":
      // JSON writes a finite number as its shortest round-trip text (String's too, -0 included: "0").
      return Number.isFinite(v) ? String(v) : "null";
    case "boolean":
      return v ? "true" : "false";
  }
  return v === null ? "null" : JSON.stringify(v);
}

/** Whether a string needs no escaping: no control characters, quote, backslash or surrogate (a lone one is escaped). */
function isPlain(v: string): boolean {
  for (let k = 0; k < v.length; k++) {
    const c = v.charCodeAt(k);
    if (c < 32 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}
