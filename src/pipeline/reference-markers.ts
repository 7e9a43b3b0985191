// `[reference:N]` markers in answer text (core-upstream §7.8, §7.16): stripped (compat.strip_reference_markers,
// default) or turned into `[N](url)` links; and, on the line-extractor path with search on, legacy
// `[citation:N]` markers linked the same way. A delta may end inside a marker, so a trailing fragment that could
// still become one is held back until the next delta or the end of the answer.

const REFERENCE = /\[reference:\s*(\d+)\]/gi;
const CITATION = /\[citation:\s*(\d+)\]/gi;
const REFERENCE_ZERO = /\[reference:\s*0+\]/i;
// `[`, `[r`, … `[reference:12` and `[c`, … `[citation:3`: what a marker looks like before its `]`.
const PARTIAL = /\[(?:r(?:e(?:f(?:e(?:r(?:e(?:n(?:c(?:e(?::\s*\d*)?)?)?)?)?)?)?)?)?|c(?:i(?:t(?:a(?:t(?:i(?:o(?:n(?::\s*\d*)?)?)?)?)?)?)?)?)?$/i;

export interface MarkerResolvers {
  /** `[reference:N]` → url (null: leave the marker as it is). `zeroSeen`: a `[reference:0]` occurred so far. */
  reference(n: number, zeroSeen: boolean): string | null;
  /** `[citation:N]` → url; absent: citation markers are left alone. */
  citation?: (n: number) => string | null;
}

export class ReferenceCleaner {
  private held = "";
  private zeroSeen = false;
  private readonly resolvers: MarkerResolvers;

  constructor(
    private readonly strip: boolean,
    resolve: ((n: number) => string | null) | MarkerResolvers,
  ) {
    this.resolvers = typeof resolve === "function" ? { reference: (n) => resolve(n) } : resolve;
  }

  push(text: string): string {
    let s = this.held + text;
    this.held = "";
    const open = s.lastIndexOf("[");
    if (open >= 0 && PARTIAL.test(s.slice(open))) {
      this.held = s.slice(open);
      s = s.slice(0, open);
    }
    return this.clean(s);
  }

  flush(): string {
    const s = this.held;
    this.held = "";
    return this.clean(s);
  }

  private clean(s: string): string {
    if (!s.includes("[")) return s;
    if (!this.zeroSeen && REFERENCE_ZERO.test(s)) this.zeroSeen = true;
    let out = s.replace(REFERENCE, (whole, n: string) => {
      if (this.strip) return "";
      const url = this.resolvers.reference(Number(n), this.zeroSeen);
      return url ? `[${n}](${url})` : whole;
    });
    const resolvers = this.resolvers;
    if (resolvers.citation && out.includes("[")) {
      out = out.replace(CITATION, (whole, n: string) => {
        // Called as a method: a resolver may be an object whose methods read its own state.
        const url = resolvers.citation!(Number(n));
        return url ? `[${n}](${url})` : whole;
      });
    }
    return out;
  }
}
