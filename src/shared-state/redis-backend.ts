// The Redis backend of the shared state (issue 21), imported by backend.ts only when Redis is configured.
import type { Logger } from "../util/log";
import type { Backend } from "./backend";
import { SharedRedis } from "./redis";
import { RedisPool } from "./redis-pool";
import { SharedConfig } from "./shared-config";
import { RedisResponseStore } from "./redis-responses";
import { RedisFileAffinity } from "./redis-file-affinity";
import { RedisLogins } from "./redis-logins";
import { RedisHistoryReplica } from "./redis-history";
import { RedisUsageStore } from "./redis-usage";
import { RedisHealth } from "./redis-health";
import { redactRedisUrl, type StoreSettings } from "./settings";
import { rateLimitedLogger } from "../util/rate-limited-log";

/** Throws (a clear message, no password) when Redis cannot be reached: the gateway exits. */
export async function openRedisBackend(settings: StoreSettings, log: Logger): Promise<Backend> {
  const redis = await SharedRedis.connect(settings.redisUrl!, settings.prefix);
  log.info("shared state on Redis", { redis: redactRedisUrl(settings.redisUrl!), instance: redis.instanceId });
  // While Redis is down every request would add its own warn lines (issue 30, item 6): one per kind per 10 s.
  log = rateLimitedLogger(log);
  let pool: RedisPool | null = null;
  let shared: SharedConfig | null = null;
  return {
    settings,
    redis,
    async makePool(opts) {
      pool = new RedisPool({ redis, accounts: opts.accounts, limits: opts.limits, leaseTtlMs: settings.leaseTtlMs, log });
      await pool.start();
      return pool;
    },
    makeResponses: (opts) => new RedisResponseStore({ redis, ttlMs: opts.ttlMs, maxEntries: opts.maxEntries, log }),
    logins: new RedisLogins(redis, log),
    async makeFileAffinity() {
      const files = new RedisFileAffinity(redis, log);
      await files.start();
      return files;
    },
    makeUsage: () => RedisUsageStore.open(redis, log),
    async shareHistory(history) {
      await new RedisHistoryReplica(history, redis, log).start();
    },
    async shareHealth(health, ids) {
      await new RedisHealth(redis, log).start(health, ids);
    },
    async shareConfig(config) {
      shared = new SharedConfig(config, redis, log);
      await shared.start();
    },
    async close() {
      shared?.stop();
      await pool?.close();
      redis.close();
    },
  };
}
