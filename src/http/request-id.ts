// D3.3: reuse a well-formed incoming X-Request-Id, else generate req_<24 hex>.
import { randomHex } from "../util/random";

const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFor(request: Request): string {
  const incoming = request.headers.get("x-request-id");
  if (incoming && CLIENT_ID.test(incoming)) return incoming;
  return `req_${randomHex(24)}`;
}
