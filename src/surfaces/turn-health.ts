// What a turn tells the account health tracker (issue 32), and the cause a 503 names: each candidate account's
// class (tried in this request, or kept out by its health), as counts — never an identifier or a secret.
import type { AppContext } from "../context";
import { GatewayError } from "../util/gateway-error";
import type { FailureClass } from "../accounts/health-classes";

/**
 * A 503 whose message names the classes that made the candidates unavailable (`failed`: what this request saw of
 * each account it tried); other errors unchanged. The reporting itself is in turn-deps.ts.
 */
export function explainUnavailable(ctx: AppContext, e: unknown, failed: ReadonlyMap<string, FailureClass | "failed">): unknown {
  if (!(e instanceof GatewayError) || e.status !== 503 || e.code === "no_accounts" || e.code === "store_unavailable" || e.code === "shutting_down") return e;
  const summary = candidateSummary(ctx, failed);
  if (!summary) return e;
  return new GatewayError(e.status, e.code, `${e.message} ${summary}`, { param: e.param, retryAfter: e.retryAfter, headers: e.extraHeaders });
}

/** "Accounts: tried 2 (network 1, credential_rejected 1); unavailable 1 (cooling_down rate_limited 1)." */
export function candidateSummary(ctx: AppContext, failed: ReadonlyMap<string, FailureClass | "failed">): string {
  const tried = new Map<string, number>();
  for (const cls of failed.values()) tried.set(cls, (tried.get(cls) ?? 0) + 1);
  const out = new Map<string, number>();
  for (const a of ctx.accounts.ids()) {
    if (failed.has(a)) continue;
    const h = ctx.health.get(a);
    const key = h.state === "healthy" ? (ctx.pool.inCooldown(a) ? "cooling_down" : null) : `${h.state} ${h.class ?? ""}`.trim();
    if (key) out.set(key, (out.get(key) ?? 0) + 1);
  }
  const list = (m: Map<string, number>) => [...m].map(([k, n]) => `${k} ${n}`).join(", ");
  const parts: string[] = [];
  if (tried.size) parts.push(`tried ${failed.size} (${list(tried)})`);
  if (out.size) parts.push(`kept out ${[...out.values()].reduce((a, b) => a + b, 0)} (${list(out)})`);
  return parts.length ? `Accounts: ${parts.join("; ")}.` : "";
}
