// What a turn tells the account health tracker (issue 32), and the cause a 503 names: each candidate account's
// class (tried in this request, or kept out by its health), as counts — never an identifier or a secret.
import type { AppContext } from "../context";
import { GatewayError } from "../util/gateway-error";
import { LoginFailedError } from "../accounts/manager";
import { classifyFailure, type FailureClass } from "../accounts/health-classes";
import type { RunDeps } from "../turn/types";

export interface TurnHealth {
  /** `deps` with every attempt and login reported to the tracker. */
  wrap(deps: RunDeps): RunDeps;
  /** A 503 whose message names the classes that made the candidates unavailable; other errors unchanged. */
  explain(e: unknown): unknown;
}

export function turnHealth(ctx: AppContext, requestId: string): TurnHealth {
  const failed = new Map<string, FailureClass | "failed">();
  const note = (account: string | null, e: unknown) => {
    if (!account) return;
    if (e instanceof LoginFailedError) {
      failed.set(account, ctx.health.get(account).class ?? "credential_rejected");
      return;
    }
    failed.set(account, ctx.health.failure(account, e, requestId) ?? "failed");
  };
  return {
    wrap(deps) {
      return {
        ...deps,
        attempt: async (a) => {
          try {
            const started = await deps.attempt(a);
            if (a.account) ctx.health.success(a.account, "call", requestId);
            return started;
          } catch (e) {
            if (!a.signal.aborted) note(a.account, e);
            throw e;
          }
        },
        token: async (account, o) => {
          try {
            return await deps.token(account, { ...o, requestId });
          } catch (e) {
            // Login failures record themselves in the manager; here only what this request saw.
            if (!o.signal.aborted) failed.set(account, e instanceof LoginFailedError ? (ctx.health.get(account).class ?? "credential_rejected") : (classifyFailure(e)?.cls ?? "failed"));
            throw e;
          }
        },
        onEmptyOutput: (account) => {
          if (!account) return;
          failed.set(account, "rate_limited");
          ctx.health.record(account, "rate_limited", "core returned an empty answer (core's only rate-limit signal, core-upstream §10.8)", requestId);
        },
        onAnswer: (account) => {
          if (account) ctx.health.success(account, "answer", requestId);
        },
      };
    },
    explain(e) {
      if (!(e instanceof GatewayError) || e.status !== 503 || e.code === "no_accounts" || e.code === "store_unavailable" || e.code === "shutting_down") return e;
      const summary = candidateSummary(ctx, failed);
      if (!summary) return e;
      return new GatewayError(e.status, e.code, `${e.message} ${summary}`, { param: e.param, retryAfter: e.retryAfter, headers: e.extraHeaders });
    },
  };
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
