// D3.3: reuse a well-formed incoming X-Request-Id, else generate req_<24 hex>.
// Made on every request, so cheaper than util/random.ts randomHex: random bytes are drawn from the CSPRNG 3 KiB
// at a time (each byte used once) and turned into hex through a table.

const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const ID_BYTES = 12;
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
const pool = new Uint8Array(ID_BYTES * 256);
let used = pool.length;

/** req_ + 24 lower-case hex from the CSPRNG (D0.2). */
export function newRequestId(): string {
  if (used + ID_BYTES > pool.length) {
    crypto.getRandomValues(pool);
    used = 0;
  }
  let id = "req_";
  for (let i = used, end = used + ID_BYTES; i < end; i++) id += HEX[pool[i]!];
  used += ID_BYTES;
  return id;
}

export function requestIdFor(request: Request): string {
  const incoming = request.headers.get("x-request-id");
  if (incoming && CLIENT_ID.test(incoming)) return incoming;
  return newRequestId();
}
