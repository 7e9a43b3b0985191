// Builds the Ops bundle for a context and wraps the subsystems it measures (called once by context-builder.ts).
// Part of the composition root, beside context-builder.ts: it wires ops/ to the context, the Redis backend and
// the admin auth, which ops/ itself (under all of them) must not import.
import { hostName } from "./util/host";
import { join } from "node:path";
import type { AppContext } from "./context";
import type { PowPool } from "./core/pow/pool";
import type { Logger } from "./util/log";
import { VERSION } from "./version";
import { accountStates } from "./metering/account-states";
import { instrumentCore, instrumentPool, instrumentPow } from "./metering/instrument";
import { Ops } from "./metering/ops";
import { RequestLog } from "./metering/request-log";
import { AuditTrail } from "./metering/audit";
import type { SharedRedis } from "./shared-state/redis";
import { safeEqual } from "./util/hash";
import { bearerOf } from "./http/admin-auth";
import { requestLogSettings } from "./metering/request-log-settings";
import { FileUsageStore, type UsageStore } from "./metering/usage-store";

export async function createOps(opts: { ctx: AppContext; powPool: PowPool; log: Logger; usage?: UsageStore; demo?: boolean; instance?: string; redis?: SharedRedis | null }): Promise<Ops> {
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
    accounts: () => accountStates(ctx),
  });
  ops.instance = opts.instance ?? `${hostName()}:${process.pid}`;
  // Issue 31: the request log, in the data directory; the demo keeps it in memory (docs/choices.md).
  if (requestLogSettings(ctx.config.get()).enabled) {
    ops.requestLog = RequestLog.open({
      path: opts.demo ? null : join(ctx.dataDir, "requests.sqlite"),
      settings: () => requestLogSettings(ctx.config.get()),
      log,
      now: () => ctx.now(),
      // Opened by its first use (a row to write, an admin read, the retention pass over an existing file), not
      // on the path to ready nor by an idle gateway (issue 35). Rows queue in memory until then, as between writes.
      defer: true,
    });
  }
  // Issue 31: the audit log, in the request log's database (same retention), or in memory when that is off.
  const auditOpts = {
    now: () => ctx.now(),
    retentionDays: () => requestLogSettings(ctx.config.get()).retentionDays,
    actorOf: (headers: Headers) => {
      const token = bearerOf({ headers } as Request);
      if (!token) return "";
      if (safeEqual(token, ctx.admin.key)) return "admin_key";
      return token.split(".").length === 3 ? "jwt" : "unknown";
    },
    warn: (msg: string, fields?: Record<string, unknown>) => log.warn(msg, fields),
  };
  const requestLog = ops.requestLog;
  if (requestLog) ops.deferAudit(() => new AuditTrail(requestLog.db, auditOpts));
  else ops.audit = AuditTrail.inMemory(auditOpts);
  if (ops.requestLog) ops.requestLog.onPrune = () => ops.audit?.prune();
  ctx.config.onChange((next, prev) => ops.audit?.configChanged(next, prev));
  // Shared by every instance through a capped Redis stream (shared/redis-request-log.ts, docs/choices.md).
  // Imported only then, like the rest of the Redis backend (shared-state/backend.ts).
  if (ops.requestLog && opts.redis) {
    const { RedisRequestLogReplica } = await import("./shared-state/redis-request-log");
    const replica = new RedisRequestLogReplica(ops.requestLog, opts.redis, log, ops.audit);
    replica.start();
    ops.onClose = () => replica.stop();
  }
  instrumentPool(ctx.pool, ops.metrics);
  instrumentPow(powPool, ops.metrics);
  instrumentCore(ctx.core, ops.metrics);
  return ops;
}
