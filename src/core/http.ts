// One request function for every call to core: the identity headers of core-upstream §3, timeouts, and the
// account's outbound proxy. Bun's fetch decodes gzip and br bodies itself.
import type { EffectiveUpstream } from "../config/effective";
import { socksBridgeUrl } from "./socks-bridge";

export interface ProxySpec {
  type: "http" | "socks5" | "socks5h";
  host: string;
  port: number;
  username?: string;
  password?: string;
}

export interface CoreRequest {
  method: "GET" | "POST";
  path: string;
  token?: string;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Ordinary calls time out; streaming calls pass 0 and rely on the idle timeout instead. */
  timeoutMs?: number;
  proxy?: ProxySpec;
}

export function identityHeaders(wire: EffectiveUpstream): Record<string, string> {
  return {
    "User-Agent": wire.user_agent,
    "x-client-platform": wire.client_platform,
    "x-client-version": wire.client_version,
    "x-client-locale": wire.client_locale,
    Accept: "application/json",
    "accept-charset": "UTF-8",
  };
}

export function proxyUrl(p: ProxySpec): string {
  const auth = p.username ? `${encodeURIComponent(p.username)}:${encodeURIComponent(p.password ?? "")}@` : "";
  const scheme = p.type === "http" ? "http" : p.type;
  return `${scheme}://${auth}${p.host}:${p.port}`;
}

export async function coreFetch(wire: EffectiveUpstream, baseUrl: string, req: CoreRequest): Promise<Response> {
  const headers: Record<string, string> = { ...identityHeaders(wire), ...(req.headers ?? {}) };
  if (req.token) headers.authorization = `Bearer ${req.token}`;
  let body = req.body;
  if (req.json !== undefined) {
    body = JSON.stringify(req.json);
    headers["Content-Type"] = "application/json";
  }
  const signals: AbortSignal[] = [];
  if (req.signal) signals.push(req.signal);
  const timeout = req.timeoutMs ?? wire.request_timeout_ms;
  if (timeout > 0) signals.push(AbortSignal.timeout(timeout));
  const init: RequestInit & { proxy?: string } = {
    method: req.method,
    headers,
    body,
    signal: signals.length === 1 ? signals[0] : signals.length ? AbortSignal.any(signals) : undefined,
  };
  if (req.proxy) {
    init.proxy = await proxyFor(req.proxy);
    // The SOCKS bridge binds a connection to one upstream socket and does not re-parse later requests, so
    // plain-http calls through it use one connection each (https goes through CONNECT tunnels anyway).
    if (req.proxy.type !== "http" && baseUrl.startsWith("http:")) headers.Connection = "close";
  }
  return fetch(new URL(req.path, baseUrl), init);
}

/** The proxy URL Bun's fetch is given: HTTP proxies directly, SOCKS5 through a loopback bridge. */
export async function proxyFor(p: ProxySpec): Promise<string> {
  return p.type === "http" ? proxyUrl(p) : socksBridgeUrl(p);
}
