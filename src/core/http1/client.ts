// A socket-level HTTP/1.1 client (issue 35) for the calls whose answer stays open: core's completion streams.
// Bun's fetch keeps a 256 KiB read view for every response body a reader waits on; a silent stream of the
// gateway held ≈ 14 KB more through fetch than through a socket of its own (PERFORMANCE.md). This client speaks
// what those calls need and nothing more: one request per connection at a time (kept alive and re-used), bodies
// framed by Content-Length, chunked or the connection's end, gzip/deflate/br/zstd decoded as fetch does, TLS
// with the system's roots, HTTP (CONNECT) and SOCKS5 proxies. It answers with a standard Response whose body is
// a ReadableStream<Uint8Array>, so its callers do not know which client read it.
import type { ProxySpec } from "../proxy-spec";
import { establish, proxyAuthorization, type Origin, type TlsExtra } from "./connect";
import { Conn, StaleConnection } from "./conn";
import type { ResponseHead } from "./framing";
import { addDeadline, clearDeadline } from "../deadlines";

export interface SocketFetchInit {
  method: "GET" | "POST" | "HEAD";
  headers: Record<string, string>;
  body?: string | Uint8Array;
  signal?: AbortSignal;
  proxy?: ProxySpec;
  /** TCP, the proxy's handshake and TLS together (upstream.connect_timeout_ms). */
  connectTimeoutMs: number;
  tls?: TlsExtra;
  /** Decode gzip, deflate, br and zstd bodies (default true, as fetch). */
  decompress?: boolean;
}

/** How long a kept-alive connection may wait for its next request: under common servers' 5 s keep-alive. */
const IDLE_SECONDS = 4;
const MAX_IDLE_PER_ORIGIN = 64;
const idle = new Map<string, Conn[]>();
/** Fetch's own default, so core sees the same request from either client. */
const ACCEPT_ENCODING = "gzip, deflate, br, zstd";
const DECODERS: Record<string, string> = { gzip: "gzip", "x-gzip": "gzip", deflate: "deflate", br: "brotli", zstd: "zstd" };

interface Target {
  origin: Origin;
  /** `http://host:port` as the URL spells it (the absolute form's prefix). */
  prefix: string;
  /** The Host header: host and port as the URL spells them. */
  host: string;
}

/** Parsed origins by their `scheme://authority` prefix: a URL object per call left native garbage per stream. */
const targets = new Map<string, Target>();

function target(url: string): { t: Target; path: string } {
  const slash = url.indexOf("/", url.indexOf("://") + 3);
  const prefix = slash < 0 ? url : url.slice(0, slash);
  let t = targets.get(prefix);
  if (!t) {
    const u = new URL(prefix);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new TypeError(`unsupported protocol ${u.protocol}`);
    if (u.username || u.password) throw new TypeError("credentials in the URL are not sent");
    t = { origin: { host: u.hostname, port: Number(u.port || (u.protocol === "https:" ? 443 : 80)), tls: u.protocol === "https:" }, prefix: `${u.protocol}//${u.host}`, host: u.host };
    if (targets.size < 16) targets.set(prefix, t);
  }
  const path = slash < 0 ? "/" : url.slice(slash);
  // Only a path a request line can carry as it is; anything else goes through URL's own encoding.
  if (!/^\/[\x21-\x7e]*$/.test(path) || path.includes("#")) {
    const u = new URL(url);
    return { t, path: `${u.pathname}${u.search}` };
  }
  return { t, path };
}

/** An ordinary call's deadline passed (connection set-up, proxy and TLS included); the caller words it. */
export class DeadlineExceeded extends Error {}

/** A whole answer: status, header fields and the body, decoded (Content-Encoding) as fetch decodes it. */
export interface CollectedReply {
  status: number;
  statusText: string;
  headers: [string, string][];
  /** The Content-Type header's value ("" without one). */
  contentType: string;
  body: Uint8Array;
}

/**
 * One request whose whole answer is read before it resolves, within `deadlineMs` from now (set-up included): the
 * ordinary JSON calls (login, session, PoW challenge). No Response, Headers, stream or timer of its own: the
 * connection is the deadline's target and the abort signal's listener (issue 35, CPU per request).
 */
export async function socketCall(url: string, init: SocketFetchInit & { deadlineMs: number }): Promise<CollectedReply> {
  // The connection is known before anything is awaited (exchange's first step), and replaces the placeholder.
  const deadline = addDeadline(init.deadlineMs, NO_CONNECTION_YET);
  let conn = null as Conn | null;
  try {
    const h = await exchange(url, init, true, (c) => {
      conn = c;
      if (deadline.target !== null) deadline.target = c;
    });
    clearDeadline(init.deadlineMs, deadline);
    let body = h.body!;
    const encoding = h.contentEncoding?.toLowerCase() ?? "";
    // Compressed JSON answers are rare (core sends them plain): decoded by the same decoders the streams use.
    if (body.length && init.decompress !== false && DECODERS[encoding])
      body = new Uint8Array(await new Response(new Response(body as Uint8Array<ArrayBuffer>).body!.pipeThrough(new DecompressionStream(DECODERS[encoding] as CompressionFormat) as unknown as ReadableWritablePair<Uint8Array, Uint8Array>)).arrayBuffer());
    return { status: h.status, statusText: h.statusText, headers: h.headers, contentType: h.contentType ?? "", body };
  } catch (e) {
    clearDeadline(init.deadlineMs, deadline);
    if (conn?.expired) throw new DeadlineExceeded("deadline");
    throw e;
  }
}

const NO_CONNECTION_YET = { expire() {} };

export async function socketFetch(url: string, init: SocketFetchInit): Promise<Response> {
  let conn = null as Conn | null;
  const h = await exchange(url, init, false, (c) => (conn = c));
  let body: ReadableStream<Uint8Array> | null = conn!.stream;
  conn!.stream = null;
  const headers = new Headers(h.headers);
  const encoding = (headers.get("content-encoding") ?? "").trim().toLowerCase();
  if (body && init.decompress !== false && DECODERS[encoding]) body = body.pipeThrough(new DecompressionStream(DECODERS[encoding] as CompressionFormat) as unknown as ReadableWritablePair<Uint8Array, Uint8Array>);
  return new Response(body, { status: h.status, statusText: h.statusText, headers });
}

/**
 * Sends the request on a kept-alive or new connection and resolves with the head (`collect`: once the whole
 * body is there, in `head.body`). `onConn` learns each connection used (a stale kept-alive one is replaced).
 */
async function exchange(url: string, init: SocketFetchInit, collect: boolean, onConn: (c: Conn) => void): Promise<ResponseHead> {
  const { t, path } = target(url);
  const origin = t.origin;
  const { proxy, signal } = init;
  signal?.throwIfAborted();
  // A plain-http origin through an HTTP proxy is asked in absolute form (RFC 9112 §3.2.2), as fetch does.
  const absolute = proxy?.type === "http" && !origin.tls;
  const request = serialize(init, absolute ? t.prefix + path : path, t.host, absolute ? proxyAuthorization(proxy!) : null);
  const closeRequested = /close/i.test(headerValue(init.headers, "connection") ?? "");
  const key = poolKey(origin, proxy, init.tls);
  for (let attempt = 0; ; attempt++) {
    let conn = attempt === 0 ? takeIdle(key) : null;
    if (conn) {
      conn.reused = true;
      conn.socket!.timeout(0);
    } else conn = new Conn();
    onConn(conn);
    conn.poolKey = key;
    conn.signal = signal ?? null;
    signal?.addEventListener("abort", conn);
    if (!conn.reused) {
      try {
        await establish(conn, origin, proxy, init.connectTimeoutMs, init.tls);
      } catch (e) {
        signal?.removeEventListener("abort", conn);
        if (signal?.aborted) throw signal.reason;
        throw e;
      }
    }
    conn.noBody = init.method === "HEAD";
    conn.closeAfter = closeRequested;
    conn.collect = collect;
    conn.onReusable = release;
    const head = conn.awaitHead();
    conn.send(request);
    try {
      return await head;
    } catch (e) {
      // A kept-alive connection the server closed as the request went out: once more on a new connection.
      if (e instanceof StaleConnection && attempt === 0) continue;
      throw e;
    }
  }
}

/** The request: the caller's headers in their order, then the ones fetch adds, then the body. */
function serialize(init: SocketFetchInit, target: string, host: string, proxyAuth: string | null): string | Uint8Array {
  let head = `${init.method} ${target} HTTP/1.1\r\n`;
  // The header names seen are looked at once, here, rather than searched for again below (CPU per call).
  let connection = false;
  let acceptEncoding = false;
  for (const name in init.headers) {
    const value = init.headers[name]!;
    // A line break in a name or value would be a second header (or a second request): refused, as fetch does.
    if (!name || LINE_BREAK.test(name) || LINE_BREAK.test(value)) throw new TypeError(`invalid header ${JSON.stringify(name)}`);
    const lower = name.toLowerCase();
    if (lower === "host" || lower === "content-length" || lower === "transfer-encoding") continue;
    if (lower === "connection") connection = true;
    else if (lower === "accept-encoding") acceptEncoding = true;
    head += `${name}: ${value}\r\n`;
  }
  if (!connection) head += "Connection: keep-alive\r\n";
  head += `Host: ${host}\r\n`;
  if (!acceptEncoding) head += `Accept-Encoding: ${ACCEPT_ENCODING}\r\n`;
  if (proxyAuth) head += `Proxy-Authorization: ${proxyAuth}\r\n`;
  const body = init.body;
  // One string written as it is: the socket encodes it, no intermediate buffers per request.
  if (body === undefined || typeof body === "string") {
    if (body !== undefined || init.method === "POST") head += `Content-Length: ${body === undefined ? 0 : Buffer.byteLength(body)}\r\n`;
    return `${head}\r\n${body ?? ""}`;
  }
  head += `Content-Length: ${body.byteLength}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), body]);
}

const LINE_BREAK = /[\r\n]/;

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  for (const k in headers) if (k.toLowerCase() === name) return headers[k];
  return undefined;
}

function poolKey(o: Origin, p: ProxySpec | undefined, tls: TlsExtra | undefined): string {
  const proxy = p ? `${p.type}|${p.host}|${p.port}|${p.username ?? ""}|${p.password ?? ""}` : "";
  return `${o.tls ? "https" : "http"}|${o.host}|${o.port}|${proxy}|${tls?.ca ? "ca" : ""}`;
}

function takeIdle(key: string): Conn | null {
  const list = idle.get(key);
  while (list?.length) {
    const c = list.pop()!;
    if (c.phase === "idle") return c;
  }
  return null;
}

/** A connection whose answer was read to its end waits for the next request to the same origin. */
function release(c: Conn): void {
  c.reused = false;
  let list = idle.get(c.poolKey);
  if (!list) idle.set(c.poolKey, (list = []));
  // Connections that closed while idle are dropped here rather than searched for when they close.
  if (list.length >= MAX_IDLE_PER_ORIGIN) {
    const alive = list.filter((x) => x.phase === "idle");
    list.length = 0;
    list.push(...alive);
  }
  if (list.length >= MAX_IDLE_PER_ORIGIN) return c.destroy(null);
  c.socket!.timeout(IDLE_SECONDS);
  list.push(c);
}

/** Closes every kept-alive connection (tests; a change of core's address needs none: the key differs). */
export function closeIdleConnections(): void {
  for (const list of idle.values()) for (const c of list) c.destroy(null);
  idle.clear();
}

/** Kept-alive connections waiting, per origin (tests). */
export function idleConnectionCount(): number {
  let n = 0;
  for (const list of idle.values()) n += list.filter((c) => c.phase === "idle").length;
  return n;
}
