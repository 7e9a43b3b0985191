// CSPRNG lower-case hex ids (D0.2). Ids are made several times per request (request id, call ids, response
// ids), so random bytes are drawn from the CSPRNG 4 KiB at a time (each byte used once, never reused) and turned
// into hex through a table.
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
const pool = new Uint8Array(4096);
let used = pool.length;

export function randomHex(chars: number): string {
  const n = Math.ceil(chars / 2);
  if (n > pool.length) {
    const bytes = new Uint8Array(n);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => HEX[b]).join("").slice(0, chars);
  }
  if (used + n > pool.length) {
    crypto.getRandomValues(pool);
    used = 0;
  }
  let out = "";
  for (let i = used, end = used + n; i < end; i++) out += HEX[pool[i]!];
  used += n;
  return out.length === chars ? out : out.slice(0, chars);
}
