// Builds the Ops bundle for a context and wraps the subsystems it measures (called once by context-builder.ts).
import type { AppContext } from "../context";
import type { PowPool } from "../core/pow/pool";
import type { Logger } from "../http/log";
import { VERSION } from "../version";
import { instrumentCore, instrumentPool, instrumentPow } from "./instrument";
import { Ops } from "./ops";
import { FileUsageStore } from "./usage-store";

export async function createOps(opts: { ctx: AppContext; powPool: PowPool; log: Logger }): Promise<Ops> {
  const { ctx, powPool, log } = opts;
  const usage = await FileUsageStore.open({ path: FileUsageStore.pathIn(ctx.dataDir), onError: (m) => log.warn(m) });
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
