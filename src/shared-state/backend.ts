// Chooses the shared-state backend at start (issue 21): memory (the default, one process, nothing to set
// up) or Redis. Keeps context-builder.ts to a few lines whichever backend is used.
import type { Config } from "../config/schema";
import type { Logger } from "../util/log";
import { AccountPool, type PoolOptions } from "../accounts/pool";
import type { Pool } from "../accounts/pool-api";
import { SharedRedis } from "./redis";
import { RedisPool } from "./redis-pool";
import { SharedConfig } from "./shared-config";
import type { ConfigStore } from "../config/store";
import { ResponseStore, type ResponseStoreOptions } from "../store/responses";
import type { ResponsesStore } from "../store/responses-api";
import { FileAffinity } from "../accounts/file-affinity";
import { RedisResponseStore } from "./redis-responses";
import { RedisFileAffinity } from "./redis-file-affinity";
import { RedisLogins } from "./redis-logins";
import { RedisHistoryReplica } from "./redis-history";
import { RedisUsageStore } from "./redis-usage";
import type { UsageStore } from "../metering/usage-store";
import type { ChatHistoryStore } from "../store/chat-history";
import type { LoginCoordinator } from "../accounts/login-coordinator";
import { redactRedisUrl, storeSettings, type StoreSettings } from "./settings";
import { rateLimitedLogger } from "../util/rate-limited-log";
import type { AccountHealth } from "../accounts/health";
import { RedisHealth } from "./redis-health";

export interface Backend {
  settings: StoreSettings;
  /** Null with the memory backend. */
  redis: SharedRedis | null;
  makePool(opts: PoolOptions): Promise<Pool>;
  makeResponses(opts: ResponseStoreOptions): ResponsesStore;
  /** Undefined in memory: the account manager's single-flight map suffices in one process. */
  logins: LoginCoordinator | undefined;
  makeFileAffinity(): Promise<FileAffinity>;
  /** Usage per key shared by all instances; undefined in memory (the ops bundle keeps its usage.json). */
  makeUsage(): Promise<UsageStore | undefined>;
  /** Shares the chat history between instances (no-op in memory). */
  shareHistory(history: ChatHistoryStore): Promise<void>;
  /** Shares account health between instances (issue 32; no-op in memory). */
  shareHealth(health: AccountHealth, ids: () => string[]): Promise<void>;
  /** Seeds or adopts the shared configuration and keeps it in step (no-op in memory). */
  shareConfig(config: ConfigStore): Promise<void>;
  close(): Promise<void>;
}

/** Throws (a clear message, no password) when Redis is configured but cannot be reached: the gateway exits. */
export async function openBackend(config: Config, env: Record<string, string | undefined>, log: Logger, opts: { demo?: boolean } = {}): Promise<Backend> {
  const settings = storeSettings(config, env);
  // `svc-gateway demo` is a throwaway single process: it must never write its demo config into a shared Redis.
  if (settings.backend === "memory" || opts.demo)
        return {
      settings,
      redis: null,
      makePool: async (opts) => new AccountPool(opts),
      makeResponses: (opts) => new ResponseStore(opts),
      logins: undefined,
      makeFileAffinity: async () => new FileAffinity(),
      shareConfig: async () => {},
      shareHistory: async () => {},
      shareHealth: async () => {},
      makeUsage: async () => undefined,
      close: async () => {},
    };
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
