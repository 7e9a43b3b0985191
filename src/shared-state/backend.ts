// Chooses the shared-state backend at start (issue 21): memory (the default, one process, nothing to set
// up) or Redis. Keeps context-builder.ts to a few lines whichever backend is used. The Redis backend's modules
// (redis-backend.ts) are imported only when Redis is configured: a memory start evaluates none of them (issue 35).
import type { Config } from "../config/schema";
import type { Logger } from "../util/log";
import { AccountPool, type PoolOptions } from "../accounts/pool";
import type { Pool } from "../accounts/pool-api";
import type { ConfigStore } from "../config/store";
import { ResponseStore, type ResponseStoreOptions } from "../store/responses";
import type { ResponsesStore } from "../store/responses-api";
import { FileAffinity } from "../accounts/file-affinity";
import type { UsageStore } from "../metering/usage-store";
import type { ChatHistoryStore } from "../store/chat-history";
import type { LoginCoordinator } from "../accounts/login-coordinator";
import { storeSettings, type StoreSettings } from "./settings";
import type { SharedRedis } from "./redis";
import type { AccountHealth } from "../accounts/health";

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
  const { openRedisBackend } = await import("./redis-backend");
  return openRedisBackend(settings, log);
}
