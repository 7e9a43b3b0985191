// D11.7 proxy test: GET core's origin through the proxy with a 15 s timeout. Any status < 500 means the
// proxy works (core answered through it); ≥ 500, a timeout or a connect error means it does not.
import type { Proxy } from "../../config/schema";
import { proxyFor } from "../../core/http";
import type { ProxySpec } from "../../core/proxy-spec";

export const PROXY_TEST_TIMEOUT_MS = 15_000;

export interface ProxyTestResult {
  success: boolean;
  response_time: number;
  status_code: number | null;
  message: string;
}

/** `http://user:pass@host:port` for Bun's fetch `proxy` option; credentials percent-encoded. */
export function proxyUrl(p: Pick<Proxy, "host" | "port" | "username" | "password">): string {
  const auth = p.username ? `${encodeURIComponent(p.username)}${p.password ? `:${encodeURIComponent(p.password)}` : ""}@` : "";
  const host = p.host.includes(":") && !p.host.startsWith("[") ? `[${p.host}]` : p.host;
  return `http://${auth}${host}:${p.port}`;
}

/** Strips anything credential-like from an error text before it reaches a response (D2.8). */
function cleanReason(e: unknown, p: Pick<Proxy, "password">): string {
  let text = (e as Error)?.message || String(e);
  if (p.password) text = text.split(p.password).join("***");
  return text.replace(/\/\/[^@/\s]*@/g, "//***@");
}

export async function testProxy(p: Proxy, origin: string | null, timeoutMs = PROXY_TEST_TIMEOUT_MS): Promise<ProxyTestResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  if (!origin) return { success: false, response_time: 0, status_code: null, message: "no core origin is configured to test against" };
  try {
    // The same transport core calls use: HTTP proxies directly, SOCKS5 through the loopback bridge.
    const spec: ProxySpec = { type: p.type as ProxySpec["type"], host: p.host, port: Number(p.port), username: p.username || undefined, password: p.password || undefined };
    const proxy = p.type === "http" ? proxyUrl(p) : await proxyFor(spec);
    const res = await fetch(origin, { proxy, signal: AbortSignal.timeout(timeoutMs), redirect: "manual" });
    await res.body?.cancel().catch(() => {});
    const ms = elapsed();
    if (res.status >= 500) return { success: false, response_time: ms, status_code: res.status, message: `core answered HTTP ${res.status} through the proxy` };
    const note = res.status >= 200 && res.status < 300 ? "" : ` (HTTP ${res.status})`;
    return { success: true, response_time: ms, status_code: res.status, message: `proxy reached core${note}` };
  } catch (e) {
    const timedOut = (e as Error)?.name === "TimeoutError";
    return {
      success: false,
      response_time: elapsed(),
      status_code: null,
      message: timedOut ? `timed out after ${Math.round(timeoutMs / 1000)} s` : `connection failed: ${cleanReason(e, p)}`,
    };
  }
}
