// Assembles the AppContext from a loaded configuration: the one place that wires subsystems together.
import { randomBytes } from "node:crypto";
import type { AppContext } from "./context";
import { ConfigStore } from "./config/store";
import type { LoadedConfig } from "./config/load";
import { LoginThrottle } from "./http/login-throttle";
import type { Logger } from "./http/log";
import { AccountPool } from "./accounts/pool";
import { AccountManager } from "./accounts/manager";
import { accountIdentifier } from "./config/identity";
import { effectiveChatHistory, effectiveRuntime } from "./config/effective";
import { ChatHistoryStore } from "./store/chat-history";
import { CaptureStore, captureSettingsFromEnv } from "./store/captures";

export interface ContextOptions {
  loaded: LoadedConfig;
  log: Logger;
  env: Record<string, string | undefined>;
  demo?: boolean;
  quiet?: boolean;
}

export interface BuiltContext {
  ctx: AppContext;
  demo: boolean;
  demoKey?: string;
  simUrl?: string;
  /** Graceful shutdown, step one: reject waiters, give streams time to end. */
  beforeExit(graceMs: number): Promise<void>;
  /** Last step: flush writes, stop background work. */
  close(): Promise<void>;
}

export async function buildContext(opts: ContextOptions): Promise<BuiltContext> {
  const { loaded, log, env } = opts;
  for (const w of loaded.warnings) log.warn(w);
  const config = ConfigStore.fromLoaded(loaded, { onListenerError: (e) => log.error("config listener failed", { error: String(e) }) });

  const envKey = env.SVC_ADMIN_KEY?.trim();
  let adminKey = envKey ?? "";
  let generated = false;
  if (!adminKey) {
    // D5.8: a random key per start, printed once to stderr and never logged elsewhere.
    adminKey = randomBytes(32).toString("base64url");
    generated = true;
    if (!opts.quiet) process.stderr.write(`svc-gateway: generated admin key: ${adminKey} (set SVC_ADMIN_KEY to choose one)\n`);
  }

  const pool = new AccountPool({
    accounts: () => (config.get().accounts ?? []).map(accountIdentifier),
    limits: () => {
      const r = effectiveRuntime(config.get());
      return {
        accountMaxInflight: r.account_max_inflight,
        globalMaxInflight: r.global_max_inflight,
        maxQueue: r.account_max_queue,
        queueWaitMs: r.queue_wait_seconds * 1000,
      };
    },
  });
  // D8.7: every reconfiguration re-runs the hand-off.
  config.onChange(() => pool.reconfigure());
  // WIP(lead): bound to the core client in the next step.
  const accounts = new AccountManager({ config, pool, log, login: async () => { throw new Error("core client not wired"); } });

  const chatHistory = await ChatHistoryStore.open({
    path: ChatHistoryStore.pathIn(loaded.data_dir),
    limit: () => effectiveChatHistory(config.get()).limit,
  });
  const captures = new CaptureStore(captureSettingsFromEnv(env));

  const ctx: AppContext = {
    config,
    admin: { key: adminKey, generated, jwtEnvSecret: env.SVC_JWT_SECRET || undefined },
    log,
    lifecycle: { ready: false, draining: false },
    loginThrottle: new LoginThrottle(),
    now: Date.now,
    pool,
    accounts,
    dataDir: loaded.data_dir,
    env,
    chatHistory,
    captures,
  };

  return {
    ctx,
    demo: false,
    async beforeExit() {},
    async close() {
      await config.flush();
      await chatHistory.flush();
    },
  };
}
