// Default call ids (decisions.md 0.2, which wins over svcml-and-prompts.md 1.10): `call_` + 24 lower-case
// hex from the CSPRNG. Random bytes are drawn in batches and mapped through a byte→hex table: one
// getRandomValues call per id was a visible share of the detector's time on tool-heavy answers.

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));
const POOL_BYTES = 4096;
const pool = new Uint8Array(POOL_BYTES);
let used = POOL_BYTES;

/** `chars` lower-case hex characters (even count) of fresh CSPRNG output. */
export function pooledHex(chars: number): string {
  const bytes = chars >> 1;
  if (used + bytes > POOL_BYTES) {
    crypto.getRandomValues(pool);
    used = 0;
  }
  let out = "";
  for (let k = 0; k < bytes; k++) out += HEX[pool[used + k]!];
  // Each byte is handed out once: clear it so the pool never holds reusable secrets for long.
  pool.fill(0, used, used + bytes);
  used += bytes;
  return out;
}

export function newCallId(): string {
  return `call_${pooledHex(24)}`;
}
