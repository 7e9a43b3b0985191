// What the admin API needs of core for one account (D11.6, core-upstream §10.2, §10.5): a fresh login and a
// session (and a message when asked), and deleting every session. Never takes a pool slot.
import type { AppContext } from "../../context";
import type { AccountOps, AccountTestResult, DeleteSessionsResult } from "../../accounts/operations";
import { accountIdentifier } from "../../config/identity";
import { resolveModel } from "../../models/resolve";
import { modelFlags } from "../../models/flags";
import { proxyFor } from "../../turn/attempt";
import { withDeviceId } from "../../accounts/device-id";
import type { TurnEvent, TurnRequest } from "../../pipeline/types";
import type { Caller } from "../../accounts/caller";
import { makeAttempt } from "../../turn/attempt";
import { runTurn } from "../../turn/runner";

export function makeAccountOps(ctx: AppContext): AccountOps {
  const find = (id: string) => (ctx.config.get().accounts ?? []).find((a) => accountIdentifier(a) === id);

  async function freshToken(id: string, signal?: AbortSignal): Promise<string> {
    const acc = find(id);
    if (!acc) throw new Error("account not found");
    if (acc.password && (acc.email || acc.mobile)) return ctx.core.login(withDeviceId(acc, ctx.config.get(), ctx.env), { signal, proxy: proxyFor(ctx, id) });
    if (acc.token) return acc.token;
    throw new Error("the account has neither a password nor a token");
  }

  return {
    async test(identifier, opts): Promise<AccountTestResult> {
      const started = Date.now();
      const base = { model: opts.model, session_count: 0 };
      try {
        const token = await freshToken(identifier, opts.signal);
        const proxy = proxyFor(ctx, identifier);
        let thinking = "";
        if (!opts.message) {
          await ctx.core.createSession(token, { signal: opts.signal, proxy });
        } else {
          const r = resolveModel(opts.model, ctx.config.get().model_aliases);
          if (!r.ok) return { ...base, success: false, response_time: Date.now() - started, message: r.message };
          // The same runner as every business turn (issue 17): prompt, PoW, completion, continue rounds and the
          // pipeline's stages; only the lease is this account's own, outside the pool (never takes a slot).
          const flags = modelFlags(r.id);
          const turn: TurnRequest = {
            surface: "chat",
            requestedModel: opts.model,
            model: r.id,
            turns: [{ role: "user", text: opts.message }],
            tools: [],
            toolChoice: { kind: "auto" },
            singleCall: false,
            thinking: flags.thinking_enabled,
            exposeThinking: true,
            highEffort: false,
            stream: false,
            files: [],
            fileIds: [],
            passThrough: {},
          };
          const caller: Caller = { mode: "managed", token: "", fingerprint: "admin:account-test", ownerHash: "", pinned: identifier, source: "admin" };
          const signal = opts.signal ?? AbortSignal.timeout(60_000);
          let current = token;
          const running = await runTurn(
            {
              attempt: makeAttempt(ctx, turn, caller, ""),
              acquire: async () => ({ account: identifier, release() {} }),
              token: async (_a, o) => (o.forceLogin ? (current = await freshToken(identifier, o.signal)) : current),
              invalidateToken: () => {},
              // The test's session stays: session_count below counts it, as an operator expects after a test.
              afterTurn: () => {},
              fileModeAvailable: false,
              accountCount: () => 1,
              hasCandidate: () => true,
              log: ctx.log,
            },
            turn,
            caller,
            signal,
          );
          for await (const batch of running.events as unknown as AsyncIterable<TurnEvent[]>)
            for (const ev of batch) {
              if (ev.type === "thinking") thinking += ev.text;
              else if (ev.type === "error") throw new Error(ev.message);
            }
        }
        const session_count = await ctx.core.countSessions(token, { signal: opts.signal, proxy }).catch(() => 0);
        return { ...base, success: true, response_time: Date.now() - started, message: "ok", session_count, ...(thinking ? { thinking } : {}) };
      } catch (e) {
        return { ...base, success: false, response_time: Date.now() - started, message: (e as Error).message || "test failed" };
      }
    },

    async deleteAllSessions(identifier): Promise<DeleteSessionsResult> {
      // An explicit operator action: the account is held out of new requests while delete_all runs.
      ctx.pool.holdOut(identifier, true);
      try {
        const token = await ctx.accounts.token(identifier, { signal: AbortSignal.timeout(30_000) });
        const proxy = proxyFor(ctx, identifier);
        const before = await ctx.core.countSessions(token, { proxy }).catch(() => 0);
        await ctx.core.deleteAllSessions(token, { proxy });
        return { success: true, message: "all sessions deleted", deleted: before };
      } catch (e) {
        return { success: false, message: (e as Error).message || "deleting sessions failed", deleted: 0 };
      } finally {
        ctx.pool.holdOut(identifier, false);
      }
    },
  };
}
