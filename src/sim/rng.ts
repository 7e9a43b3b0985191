// Seeded randomness for the simulator (core-upstream §12.9): one sfc32 stream per purpose, derived from
// (seed, purpose, counter), so one session's draws never depend on how other sessions interleave with it.

/** A 128-bit string hash (four 32-bit lanes) used only to seed sfc32. */
function seedLanes(text: string): [number, number, number, number] {
  let h1 = 1779033703,
    h2 = 3144134277,
    h3 = 1013904242,
    h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  return [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(key: string) {
    [this.a, this.b, this.c, this.d] = seedLanes(key);
    // The first outputs of sfc32 are weakly mixed; discard a few.
    for (let i = 0; i < 12; i++) this.u32();
  }

  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  hex(chars: number): string {
    let out = "";
    while (out.length < chars) out += this.u32().toString(16).padStart(8, "0");
    return out.slice(0, chars);
  }

  uuid(): string {
    const h = this.hex(32).split("");
    h[12] = "4";
    h[16] = "89ab"[parseInt(h[16]!, 16) & 3]!;
    const s = h.join("");
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.u32() & 0xff;
    return out;
  }
}

/** Hands out one stream per `(purpose, counter)`; the counter is per purpose unless the caller names one. */
export class RngFamily {
  private counters = new Map<string, number>();
  constructor(readonly seed: number) {}

  /** The next stream for a purpose (session ids, tokens, salts…): each call draws a fresh counter. */
  next(purpose: string): Rng {
    const n = this.counters.get(purpose) ?? 0;
    this.counters.set(purpose, n + 1);
    return new Rng(`${this.seed}|${purpose}|${n}`);
  }

  /** A stream for an explicit key, e.g. a session id plus a round number. */
  keyed(purpose: string, key: string): Rng {
    return new Rng(`${this.seed}|${purpose}|${key}`);
  }

  reset(): void {
    this.counters.clear();
  }
}
