// Legacy citation links (core-upstream §7.16 step 3, line-extractor path): every http(s) `url` value found
// anywhere in the body's data, in order of appearance, numbered from 1 (duplicates kept), overridden by
// explicit non-null `cite_index` values — shifted by +1 when any of them is 0 (zero-based indices).

const HTTP = /^https?:\/\//i;

export class CitationLinks {
  private readonly positional: string[] = [];
  private readonly explicit: { index: number; url: string }[] = [];
  private zeroBased = false;

  /** Collects the links of one parsed data payload. */
  scan(v: unknown, depth = 0): void {
    if (!v || typeof v !== "object" || depth > 32) return;
    if (Array.isArray(v)) {
      for (const x of v) if (x && typeof x === "object") this.scan(x, depth + 1);
      return;
    }
    const o = v as Record<string, unknown>;
    const url = o.url;
    if (typeof url === "string" && HTTP.test(url)) {
      this.positional.push(url);
      const ci = o.cite_index;
      if (typeof ci === "number" && Number.isInteger(ci) && ci >= 0) {
        this.explicit.push({ index: ci, url });
        if (ci === 0) this.zeroBased = true;
      }
    }
    for (const k in o) {
      const x = o[k];
      if (x && typeof x === "object") this.scan(x, depth + 1);
    }
  }

  get size(): number {
    return this.positional.length;
  }

  /** Link N (1-based), or null. */
  get(n: number): string | null {
    const shift = this.zeroBased ? 1 : 0;
    // The last explicit claim on N wins; explicit claims beat positions.
    for (let i = this.explicit.length - 1; i >= 0; i--) if (this.explicit[i]!.index + shift === n) return this.explicit[i]!.url;
    return this.positional[n - 1] ?? null;
  }

  /** Every link, marker number (as a string) → url, as the collector vectors list them. */
  toRecord(): Record<string, string> {
    const out: Record<string, string> = {};
    const max = Math.max(this.positional.length, ...this.explicit.map((e) => e.index + (this.zeroBased ? 1 : 0)));
    for (let n = 1; n <= max; n++) {
      const url = this.get(n);
      if (url) out[String(n)] = url;
    }
    return out;
  }
}
