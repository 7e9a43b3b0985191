// `[reference:N]` markers in answer text (core-upstream §7.8): stripped (compat.strip_reference_markers,
// default) or turned into `[N](url)` links. A delta may end inside a marker, so a trailing fragment that could
// still become one is held back until the next delta or the end of the answer.

const MARKER = /\[reference:\s*(\d+)\]/gi;
const PARTIAL = /\[(?:r(?:e(?:f(?:e(?:r(?:e(?:n(?:c(?:e(?::\s*\d*)?)?)?)?)?)?)?)?)?)?$/i;

export class ReferenceCleaner {
  private held = "";

  constructor(
    private readonly strip: boolean,
    private readonly resolve: (n: number) => string | null,
  ) {}

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
    return s.replace(MARKER, (whole, n: string) => {
      if (this.strip) return "";
      const url = this.resolve(Number(n));
      return url ? `[${n}](${url})` : whole;
    });
  }
}
