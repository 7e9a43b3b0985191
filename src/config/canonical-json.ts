// Canonical JSON (D0.4): keys sorted by code point at every depth, no whitespace, arrays in order.
// Used for config hashes (D14.6) and the synced config, so two instances with the same settings agree
// byte for byte whatever order their files list keys in.

// Code-point order; the default sort compares UTF-16 units, which misorders astral characters
// against U+E000–U+FFFF.
function byCodePoint(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done === y.done ? 0 : x.done ? -1 : 1;
    const d = x.value.codePointAt(0)! - y.value.codePointAt(0)!;
    if (d !== 0) return d;
  }
}

function write(value: unknown, out: string[]): void {
  if (value === null || typeof value === "number" || typeof value === "boolean" || typeof value === "string") {
    // JSON.stringify already gives the shortest round-trip number form and null for non-finite numbers.
    out.push(JSON.stringify(value));
    return;
  }
  if (Array.isArray(value)) {
    out.push("[");
    value.forEach((item, i) => {
      if (i > 0) out.push(",");
      // As JSON.stringify does: holes, undefined and functions in arrays become null.
      write(item === undefined || typeof item === "function" ? null : item, out);
    });
    out.push("]");
    return;
  }
  if (typeof value === "object") {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined && typeof obj[k] !== "function")
      .sort(byCodePoint);
    out.push("{");
    keys.forEach((k, i) => {
      if (i > 0) out.push(",");
      out.push(JSON.stringify(k), ":");
      write(obj[k], out);
    });
    out.push("}");
    return;
  }
  // bigint, symbol, undefined at top level: not JSON.
  out.push("null");
}

export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  write(value, out);
  return out.join("");
}
