// Runtime behaviour (gateway.md "Settings object", D11.3): the effective settings and their hot, partial,
// validated-as-a-whole update. The pool reads limits live, so a change applies to the next acquisition.
import type { AppContext } from "../../context";
import { settingsView } from "../../config/mask";
import type { Config } from "../../config/schema";
import { json } from "../../http/json-response";
import type { AdminApp } from "../../http/admin-edge";
import { SettingsBody } from "./schema";
import { envFlags, needsHostSync, writeInfo } from "./admin-kit";
import { adminDoc } from "./route-docs";
import type { SettingsView } from "./answer-schema";

/** The writable keys of PUT /admin/settings, per section (gateway.md + D11.3). Everything else is ignored. */
const WRITABLE: Record<string, readonly string[]> = {
  admin: ["jwt_expire_hours"],
  runtime: ["account_max_inflight", "account_max_queue", "global_max_inflight", "token_refresh_interval_hours", "queue_wait_seconds", "account_min_interval_ms", "account_daily_completions"],
  compat: ["wide_input_strict_output", "strip_reference_markers"],
  responses: ["store_ttl_seconds", "store_max_entries"],
  embeddings: ["provider", "dimensions"],
  auto_delete: ["mode"],
  current_input_file: ["enabled", "min_chars"],
  release: ["feed_url", "feed_token"],
  metrics: ["public", "token"],
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function settingsObject(ctx: AppContext) {
  const config = ctx.config.get();
  const flags = envFlags(ctx);
  const write = ctx.config.writeStatus();
  // D5.8: the warning stands while the only admin credential is a generated key.
  const defaultPasswordWarning = ctx.admin.generated && !config.admin?.password_hash;
  return {
    success: true,
    ...settingsView(config, { default_password_warning: defaultPasswordWarning }),
    dev_capture: { ...ctx.captures.settings },
    env_backed: flags.env_backed,
    env_source_present: flags.env_source_present,
    needs_host_sync: needsHostSync(ctx),
    ...writeInfo(write),
  } satisfies SettingsView;
}

/** Applies the writable part of a settings body to a draft. `null` resets a field to its default. */
export function applySettings(c: Config, body: Record<string, unknown>): void {
  for (const [section, fields] of Object.entries(WRITABLE)) {
    const incoming = body[section];
    // Each section is an object (SettingsBody, admin/schema.ts); its fields are checked by the config validation.
    if (!isObject(incoming)) continue;
    const target: Record<string, unknown> = { ...((c as Record<string, unknown>)[section] as object | undefined) };
    for (const f of fields) if (f in incoming) target[f] = incoming[f];
    // An explicit auto_delete mode replaces the legacy flag, so the two cannot disagree.
    if (section === "auto_delete" && "mode" in incoming) delete target.sessions;
    (c as Record<string, unknown>)[section] = target;
  }
  if (body.model_aliases !== undefined) {
    // A map is replaced as a whole: otherwise an alias could never be removed.
    c.model_aliases = body.model_aliases as Record<string, string>;
  }
}

export function settingsRoutes(app: AdminApp, ctx: AppContext): void {
  app.get("/admin/settings", () => json(settingsObject(ctx)), { ...adminDoc("GET /admin/settings"), admin: true });

  app.put(
    "/admin/settings",
    async ({ body }) => {
      const result = await ctx.config.update((c) => applySettings(c, body));
      ctx.pool.reconfigure();
      const settings = settingsObject(ctx);
      return json({
        success: true,
        message: "Settings updated.",
        settings,
        env_backed: settings.env_backed,
        needs_host_sync: settings.needs_host_sync,
        ...writeInfo(result),
      });
    },
    { ...adminDoc("PUT /admin/settings"), admin: true, body: SettingsBody },
  );
}
