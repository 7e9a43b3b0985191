// RFC 8288 `Link` header parsing (D15.3), written as a small scanner rather than a regex so that quoted
// parameter values may contain `;` or `,` without breaking the split. Supported: quoted or unquoted `rel`,
// several space-separated relation types in one `rel`, targets relative to the URL of the page that carried
// the header. Per RFC 8288 §3.3 only the first `rel` of a link counts, relation types compare
// case-insensitively, and a link whose target cannot be resolved is dropped rather than failing the header.

export interface LinkValue {
  /** Absolute target URL. */
  url: string;
  /** Lower-cased relation types. */
  rels: string[];
}

const WS = new Set([" ", "\t"]);

class Scanner {
  i = 0;
  constructor(readonly s: string) {}
  get done() {
    return this.i >= this.s.length;
  }
  peek() {
    return this.s[this.i];
  }
  skipWs() {
    while (!this.done && WS.has(this.s[this.i]!)) this.i++;
  }
  /** Characters up to (not including) any of `stops`. */
  until(stops: string): string {
    const start = this.i;
    while (!this.done && !stops.includes(this.s[this.i]!)) this.i++;
    return this.s.slice(start, this.i);
  }
  quoted(): string {
    this.i++; // opening quote
    let out = "";
    while (!this.done) {
      const c = this.s[this.i++]!;
      if (c === "\\" && !this.done) out += this.s[this.i++];
      else if (c === '"') return out;
      else out += c;
    }
    return out; // unterminated: take what there is
  }
  /** Recovery after a malformed link-value: jump past the next top-level comma. */
  skipToNextLink() {
    while (!this.done) {
      const c = this.peek();
      if (c === '"') this.quoted();
      else if (c === "<") this.until(">");
      else if (c === ",") {
        this.i++;
        return;
      } else this.i++;
    }
  }
}

/** Every link of the header, in order. */
export function parseLinkHeader(header: string | null | undefined, base: string): LinkValue[] {
  const out: LinkValue[] = [];
  if (!header) return out;
  const sc = new Scanner(header);
  while (!sc.done) {
    sc.skipWs();
    if (sc.peek() === ",") {
      sc.i++;
      continue;
    }
    if (sc.peek() !== "<") {
      sc.skipToNextLink();
      continue;
    }
    sc.i++;
    const target = sc.until(">");
    sc.i++; // closing '>'
    let rel: string | undefined;
    for (;;) {
      sc.skipWs();
      if (sc.peek() !== ";") break;
      sc.i++;
      sc.skipWs();
      const name = sc.until("=;, \t").toLowerCase();
      sc.skipWs();
      let value = "";
      if (sc.peek() === "=") {
        sc.i++;
        sc.skipWs();
        value = sc.peek() === '"' ? sc.quoted() : sc.until(";, \t");
      }
      if (name === "rel" && rel === undefined) rel = value;
    }
    // Anything other than the end or a comma here means a malformed tail; skip it.
    if (!sc.done && sc.peek() !== ",") sc.skipToNextLink();
    let url: string;
    try {
      url = new URL(target.trim(), base).toString();
    } catch {
      continue;
    }
    const rels = (rel ?? "").split(/[ \t]+/).filter(Boolean).map((r) => r.toLowerCase());
    out.push({ url, rels });
  }
  return out;
}

/** relation type → URL of the first link carrying it (e.g. `next`, `last`). */
export function parseLinks(header: string | null | undefined, base: string): Record<string, string> {
  const byRel = new Map<string, string>();
  for (const link of parseLinkHeader(header, base)) for (const r of link.rels) if (!byRel.has(r)) byRel.set(r, link.url);
  return Object.fromEntries(byRel);
}
