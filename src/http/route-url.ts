// Routing on the path alone (issue 15). Elysia finds the path by searching for "/" from a fixed offset
// (index 11, i.e. it assumes "http://" and a host of at least four characters), so `Host: ab` made
// /healthz a 404 and `Host: x` swallowed a path segment (/zz/v1/chat/completions answered as
// /v1/chat/completions). Bun also hands over a bare "/path" when the Host header is empty or not a host,
// which `new URL` rejects. Such a request is re-addressed to a fixed origin before it enters the app; the
// Host header itself is left as sent (nothing in the gateway builds URLs from it).

const SAFE_ORIGIN = "http://localhost";
/** The first index Elysia's router searches from. */
const ROUTER_OFFSET = 11;

const socketRequests = new WeakMap<Request, Request>();

/** Where the path starts in Bun's request.url, or -1 when it is not an absolute http(s) URL. */
function pathStart(url: string): number {
  if (url.startsWith("http://")) return url.indexOf("/", 7);
  if (url.startsWith("https://")) return url.indexOf("/", 8);
  return -1;
}

/**
 * The request the app should see: the same one when its URL routes correctly, else a copy addressed to
 * SAFE_ORIGIN with the same path and query. The copy is handed the body stream itself — `new Request(url,
 * request)` would tee it, and the tee's state and second branch stay for the whole of an open stream (nine
 * objects of ≈ 370 per silent stream, by a heap census) — and its signal follows the original's, so a client
 * disconnect still aborts it.
 */
export function routableRequest(request: Request): Request {
  const url = request.url;
  const p = pathStart(url);
  if (p >= ROUTER_OFFSET) return request;
  const path = url.startsWith("/") ? url : p >= 0 ? url.slice(p) : "/";
  const init: RequestInit & { duplex?: "half" } = { method: request.method, headers: request.headers, signal: request.signal };
  if (request.body) {
    init.body = request.body;
    init.duplex = "half";
  }
  const copy = new Request(SAFE_ORIGIN + path, init);
  socketRequests.set(copy, request);
  return copy;
}

/** The request Bun's server knows (for requestIP and timeout), given the one the app saw. */
export function socketRequest(request: Request): Request {
  return socketRequests.get(request) ?? request;
}
