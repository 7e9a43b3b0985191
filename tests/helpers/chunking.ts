// Hostile chunkings shared by every stream-stage test: whole, one unit at a time, seeded random splits.

/** A small seeded PRNG (mulberry32) so that a failing random split can be reproduced from its seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomSplits<T extends { length: number; slice(a: number, b?: number): T }>(input: T, seed: number, maxPiece = 17): T[] {
  const next = rng(seed);
  const out: T[] = [];
  let i = 0;
  while (i < input.length) {
    const n = 1 + Math.floor(next() * maxPiece);
    out.push(input.slice(i, i + n));
    i += n;
  }
  return out;
}

export function onePerUnit<T extends { length: number; slice(a: number, b?: number): T }>(input: T): T[] {
  const out: T[] = [];
  for (let i = 0; i < input.length; i++) out.push(input.slice(i, i + 1));
  return out;
}

/** Splits a string into single code points (never halves of a surrogate pair). */
export function perCodePoint(input: string): string[] {
  return Array.from(input);
}

/** Runs a TransformStream over the given chunks and collects everything it emits. */
export async function runTransform<I, O>(ts: TransformStream<I, O>, chunks: I[]): Promise<O[]> {
  const out: O[] = [];
  const reader = ts.readable.getReader();
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      out.push(value);
    }
  })();
  const writer = ts.writable.getWriter();
  for (const c of chunks) await writer.write(c);
  await writer.close();
  await reading;
  return out;
}
