// The dependency bundle handed to routes. Built once by main.ts (or by a test) and never global.
import type { ConfigStore } from "./config/store";
import type { Logger } from "./util/log";
import type { LoginThrottle } from "./http/login-throttle";
import type { Pool } from "./accounts/pool-api";
import type { AccountManager } from "./accounts/manager";
import type { AccountHealth } from "./accounts/health";
import type { Pacer } from "./accounts/pacer";
import type { CoreClient } from "./core/client";
import type { FileAffinity } from "./accounts/file-affinity";
import type { SessionJanitor } from "./accounts/session-janitor";
import type { ResponsesStore } from "./store/responses-api";
import type { VersionChecker } from "./release/version-check";
import type { ChatHistoryStore } from "./store/chat-history";
import type { CaptureStore } from "./store/captures";
import type { AccountOps } from "./accounts/operations";
import type { Ops } from "./metering/ops";
import type { Config } from "./config/schema";
import type { AddressSet } from "./util/cidr";
import { resolveClientAddress, trustedProxySet } from "./http/client-address";

export interface AdminCredentials {
  /** The admin key: SVC_ADMIN_KEY, or generated at start (D5.8). */
  key: string;
  generated: boolean;
  /** SVC_JWT_SECRET when set. */
  jwtEnvSecret?: string;
}

export interface Lifecycle {
  ready: boolean;
  draining: boolean;
}

export interface ServerHooks {
  /** Bun's server.timeout(request, seconds): 0 lifts the idle timeout for long requests (D1.3). */
  timeout(request: Request, seconds: number): void;
  requestIP(request: Request): { address: string } | null;
}

export interface AppContext {
  config: ConfigStore;
  admin: AdminCredentials;
  log: Logger;
  lifecycle: Lifecycle;
  loginThrottle: LoginThrottle;
  server?: ServerHooks;
  pool: Pool;
  accounts: AccountManager;
  /** Per-account failure classes, cooldowns, probes and event history (issue 32). */
  health: AccountHealth;
  /** Least interval and daily cap of completion starts per account (issue 32). */
  pacer: Pacer;
  core: CoreClient;
  files: FileAffinity;
  sessions: SessionJanitor;
  responses: ResponsesStore;
  versionChecker: VersionChecker;
  /** SVC_DATA_DIR or the config's folder: chat history, raw samples (D2.12). */
  dataDir: string;
  env: Record<string, string | undefined>;
  /** Calls the app itself in process (self test, raw-sample capture). Set by createApp. */
  selfHandle?: (request: Request) => Promise<Response>;
  /** Called once per request when its response has ended (the access log line was written). */
  onRequestEnd?: () => void;
  /** Server-side conversation records (D12). */
  chatHistory: ChatHistoryStore;
  /** The gateway's calls to core, for debugging (D13). The core client calls captures.record(). */
  captures: CaptureStore;
  /** Account tests and session cleanup through core; absent until the core client is wired (503). */
  accountOps?: AccountOps;
  /**
   * Demo mode on the open built-in simulator (no core origin configured): the core token that managed keys
   * run on while the config lists no accounts (D8.6, "any key works"). Unset when core is real.
   */
  demoCoreToken?: string;
  /** Core is the built-in simulator (demo mode); the console shows a banner. */
  coreSimulated?: boolean;
  /** The body read deadline (body-deadline.ts BODY_TIMEOUT_MS when unset); injectable for tests. */
  bodyTimeoutMs?: number;
  /** Metrics, usage per key and quotas (issue 20). */
  ops?: Ops;
  /** Clock in milliseconds; injectable for tests. */
  now: () => number;
}

/** Lifts the idle timeout for a request that may run long (business and core-calling admin requests). */
export function keepOpen(ctx: AppContext, request: Request): void {
  ctx.server?.timeout(request, 0);
}

// The trusted-proxy ranges of each config version (configs are frozen and replaced on every change, SIGHUP included).
const trustedByConfig = new WeakMap<Config, AddressSet>();

function trustedProxies(ctx: AppContext): AddressSet {
  const config = ctx.config.get();
  let set = trustedByConfig.get(config);
  if (!set) {
    set = trustedProxySet(ctx.env.SVC_TRUSTED_PROXIES, config.server?.trusted_proxies);
    trustedByConfig.set(config, set);
  }
  return set;
}

/**
 * The client's address (issue 33; src/http/client-address.ts): the socket peer, or what a trusted proxy in front
 * says. Every throttle, log line and record that names a client takes it from here. "local" when the request
 * did not come through a socket (tests calling app.handle, the in-process self test).
 */
export function clientIp(ctx: AppContext, request: Request): string {
  const peer = ctx.server?.requestIP(request)?.address;
  return peer === undefined ? "local" : resolveClientAddress(peer, request.headers, trustedProxies(ctx));
}
