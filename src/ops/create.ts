// Builds the Ops bundle for a context and wraps the subsystems it measures (called once by context-builder.ts).
import type { AppContext } from "../context";
import type { PowPool } from "../core/pow/pool";
import type { Logger } from "../http/log";
import { VERSION } from "../version";
import { instrumentCore, instrumentPool, instrumentPow } from "./instrument";
import { Ops } from "./ops";
import { FileUsageStore, type UsageStore } from "./usage-store";

export async function createOps(opts: { ctx: AppContext; powPool: PowPool; log: Logger; usage?: UsageStore }): Promise<Ops> {
  const { ctx, powPool, log } = opts;
  // A shared backend brings its own store (issue 21); otherwise usage.json in the data dir.
  const usage = opts.usage ?? await FileUsageStore.open({ path: FileUsageStore.pathIn(ctx.dataDir), onError: (m) => log.warn(m) });
  const ops = new Ops(usage, {
    version: VERSION,
    config: () => ctx.config.get(),
    now: () => ctx.now(),
    pool: () => {
      const s = ctx.pool.status();
      const ids = ctx.accounts.ids();
      return {
        inUse: s.in_use,
        waiting: s.waiting,
        available: s.available,
        accounts: s.total,
        cooldown: s.cooldown_accounts.length,
        loginFailing: ids.filter((id) => ctx.accounts.status(id).test_status === "failed").length,
      };
    },
  });
  instrumentPool(ctx.pool, ops.metrics);
  instrumentPow(powPool, ops.metrics);
  instrumentCore(ctx.core, ops.metrics);
  return ops;
}
