// One request function for every call to core (core-upstream §2, §3): the identity headers, the bearer token,
// timeouts, the account's outbound proxy, and cancellation. Bun's fetch decodes gzip and br bodies itself
// (tests/core/http.test.ts checks it against the simulator's compressed answers).
import { CoreError, scrubSecrets, withOrigin } from "./errors";
import { DeadlineExceeded, socketCall, socketFetch } from "./http1/client";
import { addDeadline, clearDeadline, type Expiring } from "./deadlines";
import type { ProxySpec } from "./proxy-spec";
import { ProxyFailure } from "./http1/connect";
import { PROXY_ERROR_HEADER, recentBridgeFailure } from "./proxy-failures";
import { FIXED_HEADERS, type WireConfig } from "./wire";


export interface CoreRequest {
  method: "GET" | "POST";
  path: string;
  token?: string;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * A controller that belongs to this call alone (instead of `signal`): the call aborts it on its deadline rather
   * than making one of its own linked to the caller's. An open stream then holds one controller and listener
   * less (each ≈ 1 KB resident; issue 17, memory per open stream).
   */
  controller?: AbortController;
  /**
   * Overall deadline of an ordinary call (default request_timeout_ms), body included. 0 = a streaming call:
   * only the response head has a deadline; its body is watched by the idle timeout of the caller (§2).
   */
  timeoutMs?: number;
  proxy?: ProxySpec;
}

/** The §3 headers sent on every call (the bearer token is added per call, never on login). */
export function identityHeaders(wire: Pick<WireConfig, "user_agent" | "client_platform" | "client_version" | "client_locale">): Record<string, string> {
  return {
    "User-Agent": wire.user_agent,
    "x-client-platform": wire.client_platform,
    "x-client-version": wire.client_version,
    "x-client-locale": wire.client_locale,
    ...FIXED_HEADERS,
  };
}

/** `scheme://user:pass@host:port`, credentials percent-encoded (Bun's fetch takes basic auth from the URL). */
export function proxyUrl(p: ProxySpec): string {
  const auth = p.username ? `${encodeURIComponent(p.username)}:${encodeURIComponent(p.password ?? "")}@` : "";
  const host = p.host.includes(":") && !p.host.startsWith("[") ? `[${p.host}]` : p.host;
  return `${p.type === "http" ? "http" : p.type}://${auth}${host}:${p.port}`;
}

/** The proxy URL Bun's fetch is given: HTTP proxies directly, SOCKS5 through a loopback bridge. */
export async function proxyFor(p: ProxySpec, connectTimeoutMs?: number): Promise<string> {
  if (p.type === "http") return proxyUrl(p);
  // Loaded on first use: the bridge's node:net and node:dns cost a cold start that has no SOCKS proxy (issue 35).
  const { socksBridgeUrl } = await import("./socks-bridge");
  return socksBridgeUrl(p, connectTimeoutMs);
}

type Timing = Pick<WireConfig, "request_timeout_ms" | "connect_timeout_ms"> & Partial<Pick<WireConfig, "stream_client" | "call_client">>;

/** An ordinary call's whole answer: what the client's JSON handling needs of it, nothing wrapped around it. */
export interface CoreReply {
  status: number;
  /** The body decoded as UTF-8 (Content-Encoding undone). */
  text: string;
  /** The Content-Type header ("" without one). */
  contentType: string;
}

const utf8 = new TextDecoder();

/** The request's header fields and body as sent to core (identity headers, bearer token, JSON). */
function prepare(wire: Parameters<typeof identityHeaders>[0], req: CoreRequest): { headers: Record<string, string>; body: BodyInit | undefined } {
  const headers: Record<string, string> = { ...identityHeaders(wire), ...(req.headers ?? {}) };
  if (req.token) headers.authorization = `Bearer ${req.token}`;
  let body = req.body;
  if (req.json !== undefined) {
    body = JSON.stringify(req.json);
    headers["Content-Type"] = "application/json";
  }
  return { headers, body };
}

/**
 * An ordinary call (login, session, PoW challenge, deletes, file polls) read to its end within its deadline
 * (`timeoutMs`, default request_timeout_ms), returned as status, text and content type: no second Response, no
 * timer or closures of its own (issue 35, CPU per request). Bun's fetch by default; `upstream.call_client:
 * "socket"` takes the socket-level client's kept-alive connections (docs/PERFORMANCE.md), except for a body only
 * fetch can send (a form). Failures are worded and classified exactly as `coreFetch`'s.
 */
export async function coreCall(wire: Timing & Parameters<typeof identityHeaders>[0], baseUrl: string, req: CoreRequest): Promise<CoreReply> {
  const { headers, body } = prepare(wire, req);
  const ms = req.timeoutMs || wire.request_timeout_ms;
  const signal = req.controller?.signal ?? req.signal;
  const proxied = req.proxy !== undefined && baseUrl.startsWith("http:");
  // Plain-http origins through a proxy use one connection per call (see coreFetch).
  if (proxied) headers.Connection = "close";
  if (wire.call_client !== "fetch" && (body === undefined || typeof body === "string" || body instanceof Uint8Array)) {
    try {
      const r = await socketCall(coreUrl(req.path, baseUrl), { method: req.method, headers, body, signal, proxy: req.proxy, connectTimeoutMs: wire.connect_timeout_ms, deadlineMs: ms });
      return { status: r.status, text: utf8.decode(r.body), contentType: r.contentType };
    } catch (e) {
      const timedOut = e instanceof DeadlineExceeded;
      if (!timedOut && signal?.aborted) throw signal.reason ?? e;
      throw callFailure(e, req, baseUrl, timedOut, ms);
    }
  }
  const call = new FetchCall(signal);
  const deadline = addDeadline(ms, call);
  try {
    const init: RequestInit & { proxy?: string; decompress?: boolean } = { method: req.method, headers, body, signal: call.controller.signal, decompress: true };
    if (req.proxy) init.proxy = await proxyFor(req.proxy, wire.connect_timeout_ms);
    const res = await fetch(coreUrl(req.path, baseUrl), init);
    // The SOCKS bridge answers 502 itself when the proxy fails: that is no answer of core's (issue 32).
    const bridgeError = req.proxy && res.status === 502 ? res.headers.get(PROXY_ERROR_HEADER) : null;
    if (bridgeError) throw withOrigin(new CoreError("upstream_error", `${pathOnly(req.path)}: ${bridgeError}`), "proxy");
    const text = await res.text();
    return { status: res.status, text, contentType: res.headers.get("content-type") ?? "" };
  } catch (e) {
    if (!call.timedOut && call.controller.signal.aborted) throw call.controller.signal.reason ?? e;
    throw callFailure(e, req, baseUrl, call.timedOut, ms);
  } finally {
    clearDeadline(ms, deadline);
    call.done();
  }
}

/**
 * A call's deadline target and the caller's abort listener in one object (no timer or closures per call). The
 * controller is the call's own, or one the caller gave it (`CoreRequest.controller`, then with no outer signal).
 */
class FetchCall implements Expiring, EventListenerObject {
  readonly controller: AbortController;
  timedOut = false;

  constructor(
    private readonly outer: AbortSignal | undefined,
    controller?: AbortController,
  ) {
    this.controller = controller ?? new AbortController();
    if (outer?.aborted) this.controller.abort(outer.reason);
    else outer?.addEventListener("abort", this, { once: true });
  }

  expire(): void {
    if (this.controller.signal.aborted) return; // the caller was first
    this.timedOut = true;
    this.controller.abort(new DOMException("core call timed out", "TimeoutError"));
  }

  handleEvent(): void {
    this.controller.abort(this.outer!.reason);
  }

  done(): void {
    this.outer?.removeEventListener("abort", this);
  }
}

/** A failed call's CoreError, named by its cause (issue 32): the proxy, a deadline, or the network. */
function callFailure(e: unknown, req: CoreRequest, baseUrl: string, timedOut: boolean, deadlineMs: number): unknown {
  if (e instanceof CoreError) return e;
  if (e instanceof ProxyFailure) return withOrigin(new CoreError("upstream_error", `${pathOnly(req.path)}: ${scrubSecrets(e.message, req.token, req.proxy?.password, req.proxy?.username)}`), "proxy");
  if (timedOut) return withOrigin(new CoreError("upstream_error", `${pathOnly(req.path)}: core did not answer within ${deadlineMs} ms`), "timeout");
  const why = networkReason(e, req);
  if (req.proxy) {
    // Through a proxy the connection this process opens is the proxy's: its failure is the proxy's.
    const bridged = req.proxy.type === "http" ? null : recentBridgeFailure(req.proxy);
    return withOrigin(new CoreError("upstream_error", `${pathOnly(req.path)}: ${bridged ?? `${proxyLabel(req.proxy)} unreachable (${why})`}`), "proxy");
  }
  return withOrigin(new CoreError("upstream_error", `${pathOnly(req.path)}: core unreachable at ${safeOrigin(baseUrl)} (${why})`), "network");
}

export async function coreFetch(wire: Timing & Parameters<typeof identityHeaders>[0], baseUrl: string, req: CoreRequest): Promise<Response> {
  const { headers, body } = prepare(wire, req);
  const overall = req.timeoutMs ?? wire.request_timeout_ms;
  // A streaming call still needs its head within request_timeout_ms: Bun's fetch has no hook for the connect
  // phase, so connection set-up and the head share that bound (the SOCKS bridge applies connect_timeout_ms).
  const headDeadline = overall > 0 ? overall : wire.request_timeout_ms;
  // The caller's signal aborts the call through the call's controller (one signal per call, not a second
  // composite one that an open stream would keep); the listener goes once an ordinary call is over.
  const call = new FetchCall(req.controller ? undefined : req.signal, req.controller);
  const local = call.controller;
  const deadline = addDeadline(headDeadline, call);
  const init: RequestInit & { proxy?: string; decompress?: boolean } = { method: req.method, headers, body, signal: local.signal, decompress: true };
  // A streaming call (core's completion) is read through the socket-level client unless the operator chose fetch:
  // an open stream holds less memory there (issue 35). Ordinary calls take coreCall.
  const onSocket = overall <= 0 && wire.stream_client !== "fetch" && (body === undefined || typeof body === "string" || body instanceof Uint8Array);
  try {
    if (onSocket) {
      if (req.proxy && baseUrl.startsWith("http:")) headers.Connection = "close";
      const res = await socketFetch(coreUrl(req.path, baseUrl), { method: req.method, headers, body: body as string | Uint8Array | undefined, signal: local.signal, proxy: req.proxy, connectTimeoutMs: wire.connect_timeout_ms });
      clearDeadline(headDeadline, deadline);
      return res;
    }
    if (req.proxy) {
      init.proxy = await proxyFor(req.proxy, wire.connect_timeout_ms);
      // Plain-http origins through a proxy use one connection per call: the SOCKS bridge rewrites only the
      // first request line of a connection, and HTTP proxies (tinyproxy) close idle client connections in a
      // way a pooled re-use can race with. https origins go through CONNECT tunnels and are unaffected.
      if (baseUrl.startsWith("http:")) headers.Connection = "close";
    }
    const res = await fetch(coreUrl(req.path, baseUrl), init);
    // The SOCKS bridge answers 502 itself when the proxy fails: that is no answer of core's (issue 32).
    const bridgeError = req.proxy && res.status === 502 ? res.headers.get(PROXY_ERROR_HEADER) : null;
    if (bridgeError) throw withOrigin(new CoreError("upstream_error", `${pathOnly(req.path)}: ${bridgeError}`), "proxy");
    if (overall <= 0) {
      // The caller's listener stays: its abort ends the stream's body too.
      clearDeadline(headDeadline, deadline);
      return res;
    }
    // An ordinary call's deadline covers its body too, so the (small, JSON) body is read here under the same
    // deadline, which is then dropped: a deadline left armed kept the call's controller, signals and closures
    // alive for up to request_timeout_ms after every call (issue 15's soak).
    const bytes = await res.arrayBuffer();
    clearDeadline(headDeadline, deadline);
    call.done();
    return new Response(bytes, { status: res.status, statusText: res.statusText, headers: res.headers });
  } catch (e) {
    clearDeadline(headDeadline, deadline);
    call.done();
    // Checked before the caller's abort: with a caller's controller, the deadline is what aborted it.
    if (!call.timedOut && local.signal.aborted) throw local.signal.reason ?? e;
    throw callFailure(e, req, baseUrl, call.timedOut, headDeadline);
  }
}

const origins = new Map<string, string>();

/**
 * `new URL(path, baseUrl)` as a string: fetch costs more per call given a URL object than given the string
 * (docs/PERFORMANCE.md, "Measurements behind code choices"). A path that starts with "/" replaces the base's
 * path, as URL does.
 */
export function coreUrl(path: string, baseUrl: string): string {
  if (!path.startsWith("/") || path.startsWith("//")) return new URL(path, baseUrl).href;
  let origin = origins.get(baseUrl);
  if (origin === undefined) {
    // Scheme, credentials, host and port exactly as URL writes them (not `.origin`, which drops credentials).
    origin = new URL("/", baseUrl).href.slice(0, -1);
    if (origins.size < 16) origins.set(baseUrl, origin);
  }
  return origin + path;
}

export function pathOnly(path: string): string {
  const q = path.indexOf("?");
  return q < 0 ? path : path.slice(0, q);
}

/** `socks5 proxy 10.0.0.2:1080`: names the proxy without its credentials. */
export function proxyLabel(p: ProxySpec): string {
  return `${p.type} proxy ${p.host.includes(":") ? `[${p.host}]` : p.host}:${p.port}`;
}

/** The base URL's origin without credentials, for messages. */
export function safeOrigin(baseUrl: string): string {
  try {
    const u = new URL(baseUrl);
    return `${u.protocol}//${u.host}`;
  } catch {
    return "(invalid base URL)";
  }
}

/** A fetch failure's errno-like code and text, secrets removed: "ECONNREFUSED: connection refused". */
function networkReason(e: unknown, req: CoreRequest): string {
  const err = e as { code?: unknown; message?: unknown };
  const code = typeof err?.code === "string" && err.code ? err.code : "";
  const text = scrubSecrets(String(err?.message ?? e), req.token, req.proxy?.password, req.proxy?.username);
  return code && !text.includes(code) ? `${code}: ${text}` : text;
}
