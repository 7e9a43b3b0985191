// Which backend holds the shared state (issue 21) and how to reach it. Read once at start: an instance never
// switches backends while running. SVC_STORE_BACKEND / SVC_REDIS_URL win over the config's `store` section;
// a Redis URL given without a backend selects Redis (naming a server is the operator's intent).
import type { Config } from "../config/schema";

export interface StoreSettings {
  backend: "memory" | "redis";
  redisUrl: string | null;
  /** Every key this gateway writes starts with it, so several gateways (or tests) can share one server. */
  prefix: string;
  /** Lease lifetime: the slots of an instance that died free within this time. */
  leaseTtlMs: number;
}

export const DEFAULT_LEASE_TTL_SECONDS = 30;

export function storeSettings(config: Config, env: Record<string, string | undefined>): StoreSettings {
  const s = config.store ?? {};
  const redisUrl = env.SVC_REDIS_URL?.trim() || s.redis_url || null;
  const named = env.SVC_STORE_BACKEND?.trim().toLowerCase() || s.backend || null;
  if (named !== null && named !== "memory" && named !== "redis") throw new Error(`SVC_STORE_BACKEND: must be "memory" or "redis", not "${named}"`);
  const backend = (named ?? (redisUrl ? "redis" : "memory")) as "memory" | "redis";
  if (backend === "redis" && !redisUrl) throw new Error("store.backend is \"redis\" but no Redis URL is set (store.redis_url or SVC_REDIS_URL)");
  return {
    backend,
    redisUrl,
    prefix: (env.SVC_REDIS_PREFIX?.trim() || s.key_prefix || "svcgw") + ":",
    leaseTtlMs: (s.lease_ttl_seconds ?? DEFAULT_LEASE_TTL_SECONDS) * 1000,
  };
}

/** The URL with any password replaced: for messages and logs (secrets never appear there). */
export function redactRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "redis://(unparseable URL)";
  }
}
