// D3.3: reuse a well-formed incoming X-Request-Id, else generate req_<24 hex> (randomHex draws from a pooled
// CSPRNG buffer, cheap enough for every request).
import { randomHex } from "../util/random";

const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** req_ + 24 lower-case hex from the CSPRNG (D0.2). */
export function newRequestId(): string {
  return `req_${randomHex(24)}`;
}

export function requestIdFor(request: Request): string {
  const incoming = request.headers.get("x-request-id");
  if (incoming && CLIENT_ID.test(incoming)) return incoming;
  return newRequestId();
}
