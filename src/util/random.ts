// CSPRNG lower-case hex ids (D0.2). Ids are made several times per request (request id, call ids, response
// ids), so random bytes are drawn from the CSPRNG 4 KiB at a time (each byte used once, never reused) and turned
// into hex through a table.
// A plain loop, not Array.from with a callback: 256 calls of one arrow at start made JavaScriptCore compile it
// twice, baseline then DFG, JIT work a start does for a table built once (issue 35).
const HEX: string[] = [];
for (let i = 0; i < 256; i++) HEX.push((i < 16 ? "0" : "") + i.toString(16));
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
