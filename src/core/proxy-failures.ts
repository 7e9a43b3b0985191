// What the SOCKS bridge (socks-bridge.ts) learnt about a proxy's failures, apart from the bridge itself: the HTTP
// client reads it on every proxied failure, while the bridge (node:net, node:dns) loads only when a SOCKS proxy is
// first used, off the start path (issue 35).
import type { ProxySpec } from "./proxy-spec";

/** RFC 1928 §6: the reply codes of a SOCKS5 CONNECT, in words for the failure messages of both SOCKS clients. */
const SOCKS_REPLIES: Record<number, string> = {
  1: "general SOCKS server failure",
  2: "connection not allowed by ruleset",
  3: "network unreachable",
  4: "host unreachable",
  5: "connection refused by the destination",
  6: "TTL expired",
  7: "command not supported",
  8: "address type not supported",
};

export function socksReply(code: number): string {
  return SOCKS_REPLIES[code] ?? "unknown";
}

/** Header of the bridge's own 502: why the proxy failed (no credentials), so core is not blamed (issue 32). */
export const PROXY_ERROR_HEADER = "x-svc-proxy-error";
/** The last failure of each proxy's bridge: a CONNECT refused by the bridge reaches fetch only as an error. */
const failures = new Map<string, { at: number; reason: string }>();
const FAILURE_FRESH_MS = 30_000;

function proxyKey(p: ProxySpec): string {
  return `${p.type}|${p.host}|${p.port}`;
}

export function proxyLabel(p: ProxySpec): string {
  return `${p.type} proxy ${p.host.includes(":") ? `[${p.host}]` : p.host}:${p.port}`;
}

export function noteBridgeFailure(p: ProxySpec, reason: string, now = Date.now()): void {
  failures.set(proxyKey(p), { at: now, reason });
}

/** Why this proxy's bridge last failed, when that was recent; null otherwise. */
export function recentBridgeFailure(p: ProxySpec, now = Date.now()): string | null {
  const f = failures.get(proxyKey(p));
  return f && now - f.at < FAILURE_FRESH_MS ? f.reason : null;
}
