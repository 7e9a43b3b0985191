// What the admin API needs of core for one account (D11.6, core-upstream §10.2, §10.5): a fresh login and a
// session (and a message when asked), and deleting every session. Never takes a pool slot.
import type { AppContext } from "../context";
import type { AccountOps, AccountTestResult, DeleteSessionsResult } from "../surfaces/admin/core-ops";
import { accountIdentifier } from "../config/identity";
import { resolveModel } from "../models/resolve";
import { modelFlags } from "../models/flags";
import { startCompletion } from "../core/completion";
import { proxyFor } from "../pipeline/attempt";
import { CoreReducer } from "../pipeline/core-reduce";
import type { CoreEvent } from "../pipeline/types";
import type { CoreFrame } from "../core/completion";

export function makeAccountOps(ctx: AppContext): AccountOps {
  const find = (id: string) => (ctx.config.get().accounts ?? []).find((a) => accountIdentifier(a) === id);

  async function freshToken(id: string, signal?: AbortSignal): Promise<string> {
    const acc = find(id);
    if (!acc) throw new Error("account not found");
    if (acc.password && (acc.email || acc.mobile)) return ctx.core.login(acc, { signal, proxy: proxyFor(ctx, id) });
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
          const flags = modelFlags(r.id);
          const prompt = `<｜begin▁of▁sentence｜><｜User｜>${opts.message}<｜Assistant｜>`;
          const c = await startCompletion(
            ctx.core,
            token,
            { modelType: flags.model_type, prompt, refFileIds: [], thinking: flags.thinking_enabled, search: flags.search_enabled, passThrough: {} },
            { signal: opts.signal ?? AbortSignal.timeout(60_000), proxy },
          );
          const red = new CoreReducer({ thinkingEnabled: flags.thinking_enabled, stripReferenceMarkers: true });
          const onEv = (e: CoreEvent) => {
            if (e.type === "thinking") thinking += e.text;
          };
          for await (const f of c.frames as unknown as AsyncIterable<CoreFrame>) red.push(f, onEv);
          red.end(onEv);
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
