// Assembles the AppContext from a loaded configuration: the one place that wires subsystems together.
import { GatewayError } from "./util/gateway-error";
import type { AppContext } from "./context";
import { ConfigStore } from "./config/store";
import type { LoadedConfig } from "./config/load";
import type { Config } from "./config/schema";
import { perConfig } from "./config/per-config";
import { LoginThrottle } from "./http/login-throttle";
import type { Logger } from "./util/log";
import { openBackend } from "./shared-state/backend";
import { AccountManager } from "./accounts/manager";
import { accountIdentifier } from "./config/identity";
import { effectiveChatHistory, effectiveResponses, effectiveRuntime, effectiveUpstream } from "./config/effective";
import { CoreClient } from "./core/client";
import { CoreError } from "./core/errors";
import { PowPool } from "./core/pow/pool";
import { SessionJanitor } from "./accounts/session-janitor";
import { makeAccountOps } from "./surfaces/admin/account-actions";
import { VersionChecker } from "./release/version-check";
import { effectiveRelease } from "./config/effective";
import { VERSION, VERSION_SOURCE } from "./version";
import { ConfigStore as Store } from "./config/store";
import { ChatHistoryStore } from "./store/chat-history";
import { CaptureStore, captureSettingsFromEnv } from "./store/captures";
import { createOps } from "./metering-builder";
import { AccountHealth } from "./accounts/health";
import { Pacer } from "./accounts/pacer";
import { withDeviceId } from "./accounts/device-id";
import { proxyFor } from "./turn/attempt";

const DEMO_KEY = "demo-key";
/** What every admin write answers in `svc-gateway demo` (config_warning): nothing it changes survives the process. */
export const DEMO_MEMORY_ONLY = "demo mode: changes are kept in memory only and lost when the gateway stops";
const DEMO_CORE_TOKEN = "demo-simulator-token";
const DEMO_ACCOUNT = { email: "demo@simulator.local", password: "demo-password" };

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
  const onListenerError = (e: unknown) => log.error("config listener failed", { error: String(e) });
  // `svc-gateway demo`: a demo key and a demo account on the simulator, in memory only.
  const config = opts.demo
    ? new Store({ config: { ...loaded.config, keys: [DEMO_KEY], api_keys: [{ key: DEMO_KEY, name: "demo" }], accounts: [DEMO_ACCOUNT] }, path: null, memoryOnly: DEMO_MEMORY_ONLY, onListenerError })
    : ConfigStore.fromLoaded(loaded, { onListenerError });

  // Issue 21: memory (default) or Redis shared by several instances; Redis configured but down → no start.
  const backend = await openBackend(config.get(), env, log, { demo: opts.demo });
  await backend.shareConfig(config);

  // No core origin configured: demo mode on the built-in simulator (core-upstream §1, §12.11).
  const upstream = effectiveUpstream(config.get(), env);
  let baseUrl = upstream.base_url;
  let sim: { url: string; stop(): Promise<void> | void } | null = null;
  if (!baseUrl || opts.demo) {
    const { startCoreSimulator } = await import("./sim/index");
    // A demo runs for days and nobody reads its request log: it keeps the last 100 (docs/simulator.md "Retention").
    const started = await startCoreSimulator({ open: !opts.demo, clock: "real", difficulty: 144000, accounts: [DEMO_ACCOUNT], requestLog: 100 });
    sim = started;
    baseUrl = started.url;
    log.warn("demo mode: no core origin is configured (SVC_CORE_BASE_URL or upstream.base_url); answering from the built-in core simulator", { simulator: started.url });
  }
  const powPool = new PowPool(upstream.pow_workers);
  const core = new CoreClient(upstream, baseUrl!, powPool);

  const envKey = env.SVC_ADMIN_KEY?.trim();
  let adminKey = envKey ?? "";
  let generated = false;
  if (!adminKey) {
    // D5.8: a random key per start, printed once to stderr and never logged elsewhere.
    // Web crypto, not node:crypto: that module costs a cold start ≈ 15 ms to load (issue 35).
    adminKey = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
    generated = true;
    if (!opts.quiet) process.stderr.write(`svc-gateway: generated admin key: ${adminKey} (set SVC_ADMIN_KEY to choose one)\n`);
  }

  // The pool asks for its account list and limits several times a request: derived once per config object.
  const pool = await backend.makePool({
    accounts: perConfig(() => config.get(), (c) => (c.accounts ?? []).map(accountIdentifier)) as () => string[],
    limits: perConfig(
      () => config.get(),
      (c) => {
        const r = effectiveRuntime(c);
        return { accountMaxInflight: r.account_max_inflight, globalMaxInflight: r.global_max_inflight, maxQueue: r.account_max_queue, queueWaitMs: r.queue_wait_seconds * 1000 };
      },
    ),
  });
  // D8.7: every reconfiguration re-runs the hand-off.
  config.onChange(() => pool.reconfigure());
  // Every call of a proxied account goes through its proxy, the login and the clean-up too (issue 32: never direct).
  const viaProxy = (o: { account: string | null; signal: AbortSignal }) => ({ signal: o.signal, proxy: proxyFor(ctx, o.account) });
  const accounts = new AccountManager({ config, pool, log, login: (acc, signal) => core.login(withDeviceId(acc, config.get(), env), { signal, proxy: proxyFor(ctx, accountIdentifier(acc)) }), logins: backend.logins });
  const health = new AccountHealth({
    pool,
    log,
    // A probe: a login when the token is missing or stale, then the first session page. Never a completion.
    probe: async (id) => {
      const list = (token: string) => core.listSessions(token, { proxy: proxyFor(ctx, id), signal: AbortSignal.timeout(60_000) });
      try {
        await list(await accounts.token(id));
      } catch (e) {
        if (!(e instanceof CoreError && e.kind === "upstream_auth")) throw e;
        // A stale token proves nothing about the account: one fresh login decides (a refusal records itself).
        accounts.invalidate(id);
        await list(await accounts.token(id, { forceLogin: true }));
      }
    },
  });
  accounts.health = health;
  await backend.shareHealth(health, () => (config.get().accounts ?? []).map(accountIdentifier));
  const sessions = new SessionJanitor({ config, pool, log, core: { deleteSession: (t, id, o) => core.deleteSession(t, id, viaProxy(o)), deleteAllSessions: (t, o) => core.deleteAllSessions(t, viaProxy(o)) } });
  const responses = backend.makeResponses({
    ttlMs: () => effectiveResponses(config.get()).store_ttl_seconds * 1000,
    maxEntries: () => effectiveResponses(config.get()).store_max_entries,
  });

  const chatHistory = await ChatHistoryStore.open({
    path: ChatHistoryStore.pathIn(loaded.data_dir),
    limit: () => effectiveChatHistory(config.get()).limit,
  });
  await backend.shareHistory(chatHistory);
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
    health,
    pacer: new Pacer({ config: () => config.get() }),
    dataDir: loaded.data_dir,
    env,
    chatHistory,
    captures,
    core,
    files: await backend.makeFileAffinity(),
    sessions,
    responses,
    versionChecker: new VersionChecker({
      currentVersion: VERSION,
      source: VERSION_SOURCE,
      feedUrl: () => effectiveRelease(config.get(), env).feed_url ?? undefined,
      feedToken: () => effectiveRelease(config.get(), env).feed_token ?? undefined,
    }),
  };
  ctx.accountOps = makeAccountOps(ctx);
  ctx.ops = await createOps({ ctx, powPool, log, usage: await backend.makeUsage(), demo: opts.demo, instance: backend.redis?.instanceId, redis: backend.redis });
  // The open simulator accepts any token as one of its demo accounts; `svc-gateway demo` has its own account.
  if (sim && !opts.demo) ctx.demoCoreToken = DEMO_CORE_TOKEN;
  ctx.coreSimulated = sim !== null;

  return {
    ctx,
    demo: sim !== null,
    demoKey: opts.demo ? DEMO_KEY : undefined,
    simUrl: sim?.url,
    async beforeExit() {
      pool.rejectAllWaiters(new GatewayError(503, "shutting_down", "The gateway is shutting down."));
    },
    async close() {
      await config.flush();
      await chatHistory.flush();
      await ctx.ops?.close();
      responses.close();
      health.close();
      powPool.close();
      await backend.close();
      await sim?.stop();
    },
  };
}
