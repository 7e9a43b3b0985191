// Static configuration (gateway.md "Configuration"; D2.9, D2.10, D11.1, D11.2): the masked config view,
// its list-replacing update, import (merge/replace) and the full-backup export.
import { applyAccess, setAccess } from "./key-access";
import type { AppContext } from "../../context";
import { maskAccount, maskProxy } from "../../config/mask";
import { serialiseConfig } from "../../config/persist";
import type { Config } from "../../config/schema";
import { json } from "../../http/json-response";
import type { AdminApp } from "../../http/admin-edge";
import { AdminBody, ConfigReplaceBody } from "./schema";
import { envFlags, notFound, writeInfo } from "./admin-kit";
import { invalidRequest } from "../../util/invalid-request";
import { accountFromBody, accountsWithChangedSecrets, keepSecrets, keyRecordFromBody, keyRecords, mergeImport, setKeys } from "./config-edit";
import { accountProblem, validateConfig } from "../../config/validate";
import { startConfig } from "../../config/store";
import { adminDoc } from "./route-docs";
import { ConfigImportQuery } from "./query-schema";
import type { ConfigView } from "./answer-schema";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** gateway.md "Config read result", masked (D2.8). */
export function configView(ctx: AppContext) {
  const c = ctx.config.get();
  const accounts = c.accounts ?? [];
  const flags = envFlags(ctx);
  return {
    keys: keyRecords(c).map((r) => r.key),
    api_keys: keyRecords(c).map((r) => ({ key: r.key, name: r.name ?? "", remark: r.remark ?? "", ...(r.quota ? { quota: r.quota } : {}), ...setAccess(r) })),
    env_backed: flags.env_backed,
    env_source_present: flags.env_source_present,
    env_writeback_enabled: flags.env_writeback_enabled,
    config_path: ctx.config.path ?? "",
    accounts: accounts.map(maskAccount),
    proxies: (c.proxies ?? []).map((p) => maskProxy(p, accounts)),
    model_aliases: { ...(c.model_aliases ?? {}) },
  } satisfies ConfigView;
}

function exportBody(ctx: AppContext) {
  const config = ctx.config.get();
  const text = serialiseConfig(config);
  return { config, json: text, base64: Buffer.from(text, "utf8").toString("base64") };
}

// D2.9: a full backup holding secrets must not be kept by any cache on the way.
const NO_STORE = { "Cache-Control": "no-store" };

/** A changed password or token makes the account untested again (D8.12). */
export function resetChanged(ctx: AppContext, before: Config): void {
  for (const id of accountsWithChangedSecrets(before, ctx.config.get())) ctx.accounts.resetStatus(id);
}

function checkProxyRefs(c: Config): void {
  const ids = new Set((c.proxies ?? []).map((p) => p.id));
  for (const a of c.accounts ?? []) if (a.proxy_id && !ids.has(a.proxy_id)) throw notFound(`Unknown proxy ${a.proxy_id}.`);
}

export function configRoutes(app: AdminApp, ctx: AppContext): void {
  app.get("/admin/config", () => json(configView(ctx)), { ...adminDoc("GET /admin/config"), admin: true });

  app.post(
    "/admin/config",
    async ({ body }) => {
      const before = ctx.config.get();
      const result = await ctx.config.update((c) => {
        // D11.2: each list or map that is present replaces; absent ones stay.
        if (body.api_keys !== undefined || body.keys !== undefined) {
          // Structured records win; bare keys only add what the records lack (gateway.md).
          const records = [
            ...(body.api_keys ?? []).map((r, i) => keyRecordFromBody(r, `api_keys.${i}`)),
            ...(body.keys ?? []).map((k, i) => keyRecordFromBody(k, `keys.${i}`)),
          ];
          if (body.api_keys === undefined) {
            // Only legacy keys sent: keep the labels of keys that stay.
            const prev = new Map(keyRecords(c).map((r) => [r.key, r]));
            for (const r of records) Object.assign(r, { name: prev.get(r.key)?.name ?? "", remark: prev.get(r.key)?.remark ?? "" }, prev.get(r.key)?.quota ? { quota: prev.get(r.key)!.quota } : {});
            // The access fields of keys that stay are kept too (issue 31): a disabled key stays disabled.
            for (const r of records) {
              const p = prev.get(r.key);
              if (p) applyAccess(r, { enabled: p.enabled ?? null, expires_at: p.expires_at ?? null, allowed_models: p.allowed_models ?? null });
            }
          }
          setKeys(c, records);
        }
        if (body.accounts !== undefined) {
          const stored = c.accounts ?? [];
          c.accounts = body.accounts.map((raw, i) => {
            const acc = keepSecrets(accountFromBody(raw, `accounts.${i}`), stored);
            const problem = accountProblem(acc);
            if (problem) throw invalidRequest(`accounts.${i}: ${problem}`);
            return acc;
          });
          checkProxyRefs(c);
        }
        if (body.model_aliases !== undefined) {
          c.model_aliases = body.model_aliases as Record<string, string>;
        }
      });
      resetChanged(ctx, before);
      const c = ctx.config.get();
      return json({
        success: true,
        message: "Configuration updated.",
        total_keys: ctx.config.managedKeyCount(),
        total_accounts: (c.accounts ?? []).length,
        ...writeInfo(result),
      });
    },
    { ...adminDoc("POST /admin/config"), admin: { bodyRequired: true }, body: ConfigReplaceBody },
  );

  app.post(
    "/admin/config/import",
    async ({ request, body, query }) => {
      const wrapped = isObject(body.config);
      const incoming = wrapped ? (body.config as Record<string, unknown>) : body;
      // D2.10: ?mode= wins over the body's mode.
      const mode = query.mode || (wrapped && typeof body.mode === "string" ? body.mode : "") || "merge";
      if (mode !== "merge" && mode !== "replace") throw invalidRequest("mode must be merge or replace.");
      let counts = { imported_keys: 0, imported_accounts: 0, imported_proxies: 0 };
      const before = ctx.config.get();
      const result = await ctx.config.update((c) => {
        if (mode === "merge") {
          counts = mergeImport(c, incoming);
          checkProxyRefs(c);
          return;
        }
        // A whole config means what it would mean at a start: its two key forms are read together, not
        // reconciled against the config it replaces (which dropped keys listed in one form only, issue 30).
        // An invalid one is left as it is, for the store's validation to answer 400.
        const valid = validateConfig(incoming);
        const next = valid.ok ? startConfig(valid.config) : (structuredClone(incoming) as Config);
        // Replace keeps the hosting-sync bookkeeping, so drift detection survives a restore.
        next._host_sync_hash = c._host_sync_hash;
        next._host_sync_time = c._host_sync_time;
        if (next._host_sync_hash === undefined) delete next._host_sync_hash;
        if (next._host_sync_time === undefined) delete next._host_sync_time;
        counts = {
          imported_keys: new Set([...(Array.isArray(next.keys) ? next.keys : []), ...(Array.isArray(next.api_keys) ? next.api_keys.map((r) => r?.key) : [])]).size,
          imported_accounts: Array.isArray(next.accounts) ? next.accounts.length : 0,
          imported_proxies: Array.isArray(next.proxies) ? next.proxies.length : 0,
        };
        return next;
      });
      resetChanged(ctx, before);
      return json({
        success: true,
        mode,
        ...counts,
        message: `Imported configuration (${mode}).`,
        ...writeInfo(result),
      });
    },
    { ...adminDoc("POST /admin/config/import"), admin: { bodyRequired: true }, body: AdminBody, query: ConfigImportQuery },
  );

  app.get("/admin/config/export", () => json({ success: true, ...exportBody(ctx) }, 200, NO_STORE), { ...adminDoc("GET /admin/config/export"), admin: true });

  app.get(
    "/admin/export",
    () => {
      const { json: text, base64 } = exportBody(ctx);
      return json({ success: true, json: text, base64 }, 200, NO_STORE);
    },
    { ...adminDoc("GET /admin/export"), admin: true },
  );
}
