// Calls the gateway's own chat-completions route in process (D11.8, D13.6): no network hop, the same
// code path a client gets, marked `X-Svc-Source: admin-tester` so chat history skips it (D12.6).
import type { AppContext } from "../../context";
import { GatewayError } from "../../util/gateway-error";
import { randomHex } from "../../util/random";
import { invalidRequest } from "../../util/invalid-request";

export const SELF_CALL_TIMEOUT_MS = 60_000;

export interface SelfCallResult {
  status: number;
  text: string;
  requestId: string;
}

/** The business key to call with: the body's, else the first managed key (none → 400). */
export function callerKey(ctx: AppContext, given: unknown): string {
  if (typeof given === "string" && given.trim()) return given.trim();
  const first = ctx.config.managedKeys()[0];
  if (!first) throw invalidRequest("No API key is configured; add one or pass api_key.");
  return first;
}

export async function selfChat(
  ctx: AppContext,
  apiKey: string,
  body: Record<string, unknown>,
  timeoutMs = SELF_CALL_TIMEOUT_MS,
  beforeSend?: (requestId: string) => void,
): Promise<SelfCallResult> {
  if (!ctx.selfHandle) throw new GatewayError(503, "service_unavailable", "core client not available");
  // A known request id is the capture chain key (D13.2), so the caller can find this request's captures.
  const requestId = `req_${randomHex(24)}`;
  beforeSend?.(requestId);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error("self call timed out")), timeoutMs);
  try {
    const request = new Request("http://localhost/v1/chat/completions", {
      method: "POST",
      headers: {
        Authorization: `Bearer ${apiKey}`,
        "Content-Type": "application/json",
        "X-Svc-Source": "admin-tester",
        "X-Request-Id": requestId,
      },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    const res = await Promise.race([
      ctx.selfHandle(request),
      new Promise<never>((_, reject) => controller.signal.addEventListener("abort", () => reject(new GatewayError(504, "timeout", "The request timed out after 60 s.")), { once: true })),
    ]);
    const text = await res.text();
    return { status: res.status, text, requestId };
  } finally {
    clearTimeout(timer);
  }
}

export function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { raw: text };
  }
}
