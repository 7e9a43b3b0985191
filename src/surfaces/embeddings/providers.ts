// Embedding providers (D10.3). None contacts core: they are local, deterministic vector functions.

export type EmbeddingInput = string | number[];
export type Provider = (input: EmbeddingInput, dimensions: number) => Float32Array;

export const PROVIDERS: Record<string, Provider> = {
  mock: mockVector,
  deterministic: deterministicVector,
  builtin: lexicalVector,
};

/** The same fixed vector for every input: component j = ((j mod 8) + 1) / 8. */
function mockVector(_input: EmbeddingInput, dims: number): Float32Array {
  const v = new Float32Array(dims);
  for (let j = 0; j < dims; j++) v[j] = ((j % 8) + 1) / 8;
  return v;
}

export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

const inputText = (input: EmbeddingInput) => (typeof input === "string" ? input : input.join(" "));

/** xorshift32 seeded with FNV-1a-32 of the input; components uniform in [−1, 1]; L2-normalised. */
function deterministicVector(input: EmbeddingInput, dims: number): Float32Array {
  let x = fnv1a32(inputText(input)) || 0x9e3779b9;
  const v = new Float32Array(dims);
  for (let j = 0; j < dims; j++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    v[j] = (x / 0xffffffff) * 2 - 1;
  }
  return normalise(v);
}

/** Words (weight 1) and character trigrams (weight 0.5) hashed into signed buckets, L2-normalised. */
function lexicalVector(input: EmbeddingInput, dims: number): Float32Array {
  const v = new Float32Array(dims);
  const add = (feature: string, weight: number) => {
    const h = fnv1a32(feature);
    const index = (h & 0x7fffffff) % dims;
    v[index]! += h & 0x80000000 ? -weight : weight;
  };
  if (typeof input !== "string") {
    for (const id of input) add(`t:${id}`, 1);
    return normalise(v);
  }
  const text = input.normalize("NFKC").toLowerCase();
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) add(`w:${m[0]}`, 1);
  const collapsed = Array.from(text.replace(/\s+/g, " ").trim());
  for (let i = 0; i + 3 <= collapsed.length; i++) add(`c:${collapsed.slice(i, i + 3).join("")}`, 0.5);
  return normalise(v);
}

function normalise(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  if (sum === 0) return v;
  const n = Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) v[i]! /= n;
  return v;
}

/** Base64 of little-endian float32 (the `openai` SDK's default encoding_format). */
export function base64Float32(v: Float32Array): string {
  const buf = Buffer.alloc(v.length * 4);
  for (let i = 0; i < v.length; i++) buf.writeFloatLE(v[i]!, i * 4);
  return buf.toString("base64");
}
