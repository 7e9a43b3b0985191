// SIGHUP (issue 20): re-read the config file and apply it through the config store, exactly like an admin write,
// so listeners (pool limits, hot settings) see it and requests in flight — streams included — run on untouched.
// The file must be whole and valid: a missing or invalid file is reported and the running config stays.
import type { AppContext } from "../context";
import { ConfigError, loadConfig } from "../config/load";

export type ReloadOutcome = { reloaded: true; path: string } | { reloaded: false; reason: string };

export async function reloadConfigFile(ctx: AppContext): Promise<ReloadOutcome> {
  const path = ctx.config.path;
  if (path === null || ctx.config.envBacked) return { reloaded: false, reason: "the configuration does not come from a file (SVC_CONFIG_JSON or demo mode)" };
  let loaded;
  try {
    // Only the file: the environment's config source was already decided at start.
    loaded = await loadConfig({ configPath: path, env: { SVC_CONFIG_PATH: path } });
  } catch (e) {
    if (e instanceof ConfigError) return { reloaded: false, reason: `invalid configuration: ${e.message}` };
    throw e;
  }
  // An empty config from a vanished file would drop every key and account: never what a reload means.
  if (loaded.source.includes("(missing")) return { reloaded: false, reason: `${path} is missing` };
  try {
    await ctx.config.update(() => loaded.config);
  } catch (e) {
    return { reloaded: false, reason: `invalid configuration: ${(e as Error).message}` };
  }
  ctx.pool.reconfigure();
  return { reloaded: true, path };
}

/** The SIGHUP handler: one log line either way; reloads never overlap. */
export function onReloadSignal(ctx: AppContext): () => void {
  let running: Promise<void> | null = null;
  return () => {
    running = (running ?? Promise.resolve()).then(async () => {
      try {
        const r = await reloadConfigFile(ctx);
        if (r.reloaded) ctx.log.info("configuration reloaded", { path: r.path, keys: ctx.config.managedKeyCount(), accounts: ctx.config.get().accounts?.length ?? 0 });
        else ctx.log.warn("configuration not reloaded", { reason: r.reason });
      } catch (e) {
        ctx.log.error("configuration reload failed", { error: (e as Error).message });
      }
    });
  };
}
