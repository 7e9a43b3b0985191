// SIGHUP (issues 20, 30): a restart without dropping connections. The configuration is built from the file by
// the loader and normalisation a start uses (loadConfig, then startConfig inside ConfigStore.replace), so a
// reload and a restart with the same file agree on every key, account and proxy. It is applied in place —
// listeners see the previous and the next config and act on the difference (pool limits, hot settings), and
// requests in flight keep the account they hold — and it is never written back: the file is the operator's.
// A missing, blank or invalid file is refused with the reason in the log, and the running config stays.
// In Redis mode the result is shared like an admin write; when the store is unreachable the reload is refused.
import type { AppContext } from "../context";
import { ConfigError, loadConfig } from "../config/load";
import { GatewayError } from "../util/gateway-error";
import { accountsWithChangedSecrets } from "../surfaces/admin/config-edit";

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
  // An empty config from a vanished or truncated file would drop every key and account: never what a reload
  // means (a start accepts it only because a first start often begins with `touch config.json`).
  if (loaded.empty === "missing") return { reloaded: false, reason: `${path} is missing` };
  if (loaded.empty === "blank") return { reloaded: false, reason: `${path} is blank (0 bytes or only whitespace)` };
  const before = ctx.config.get();
  try {
    await ctx.config.replace(loaded.config);
  } catch (e) {
    if (e instanceof GatewayError && e.status === 503) return { reloaded: false, reason: `the shared store is unavailable, so the change could not be shared (${e.code})` };
    return { reloaded: false, reason: `invalid configuration: ${(e as Error).message}` };
  }
  // As for an admin edit (D8.12): an account whose password or token changed in the file is untested again.
  for (const id of accountsWithChangedSecrets(before, ctx.config.get())) ctx.accounts.resetStatus(id);
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
