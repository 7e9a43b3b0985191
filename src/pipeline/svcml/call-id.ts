// Default call ids (decisions.md 0.2, which wins over svcml-and-prompts.md 1.10): `call_` + 24 lower-case
// hex from the CSPRNG. Random bytes are drawn in batches and hex-encoded natively in one go: one
// getRandomValues call per id, or a per-byte string build, was a visible share of the detector's time on
// tool-heavy answers. Each hex character is handed out once.

const POOL_BYTES = 4096;
const pool = new Uint8Array(POOL_BYTES);
let hex = "";
let used = 0;

/** `chars` lower-case hex characters (even count) of fresh CSPRNG output. */
export function pooledHex(chars: number): string {
  if (chars > POOL_BYTES * 2) throw new RangeError("pooledHex: too many characters");
  if (used + chars > hex.length) {
    crypto.getRandomValues(pool);
    hex = Buffer.from(pool.buffer, pool.byteOffset, pool.byteLength).toString("hex");
    pool.fill(0);
    used = 0;
  }
  const out = hex.slice(used, used + chars);
  used += chars;
  return out;
}

export function newCallId(): string {
  return `call_${pooledHex(24)}`;
}
