// Business API keys (gateway.md "Keys", D2.7, D11.4). Keys are record identifiers and are shown to admins;
// the access log redacts the path segment (D3.6).
import type { AppContext } from "../../context";
import { json } from "../../http/json-response";
import type { AdminApp } from "../../http/admin-edge";
import { KeyCreateBody, KeyParams, KeyUpdateBody } from "./schema";
import { conflict, notFound, pathParam, writeInfo } from "./admin-kit";
import type { ApiKeyRecord } from "../../config/schema";
import { keyRecords, setKeys } from "./config-edit";
import { applyQuota, quotaFromBody } from "./key-quota";
import { accessFromBody, applyAccess } from "./key-access";
import { adminDoc } from "./route-docs";

export function keysRoutes(app: AdminApp, ctx: AppContext): void {
  const done = (result: { config_writable: boolean; config_warning?: string }) =>
    json({ success: true, total_keys: ctx.config.managedKeyCount(), ...writeInfo(result) });

  app.post(
    "/admin/keys",
    async ({ body }) => {
      const { key } = body;
      const name = body.name ?? "";
      const remark = body.remark ?? "";
      const quota = quotaFromBody(body as Record<string, unknown>);
      const access = accessFromBody(body as Record<string, unknown>);
      const result = await ctx.config.update((c) => {
        const records = keyRecords(c);
        if (records.some((r) => r.key === key)) throw conflict("Key already exists.");
        const rec: ApiKeyRecord = { key, name, remark };
        applyQuota(rec, quota);
        applyAccess(rec, access);
        setKeys(c, [...records, rec]);
      });
      return done(result);
    },
    { ...adminDoc("POST /admin/keys"), admin: true, body: KeyCreateBody },
  );

  app.put(
    "/admin/keys/:key",
    async (c) => {
      const key = pathParam(c, "key");
      // null, like absent, leaves a label as it is.
      const name = c.body.name ?? undefined;
      const remark = c.body.remark ?? undefined;
      const quota = quotaFromBody(c.body as Record<string, unknown>);
      const access = accessFromBody(c.body as Record<string, unknown>);
      const result = await ctx.config.update((draft) => {
        const records = keyRecords(draft);
        const rec = records.find((r) => r.key === key);
        if (!rec) throw notFound("Key not found.");
        if (name !== undefined) rec.name = name;
        if (remark !== undefined) rec.remark = remark;
        applyQuota(rec, quota);
        applyAccess(rec, access);
        setKeys(draft, records);
      });
      return done(result);
    },
    { ...adminDoc("PUT /admin/keys/:key"), admin: true, params: KeyParams, body: KeyUpdateBody },
  );

  app.delete(
    "/admin/keys/:key",
    async (c) => {
      const key = pathParam(c, "key");
      const result = await ctx.config.update((draft) => {
        const records = keyRecords(draft);
        if (!records.some((r) => r.key === key)) throw notFound("Key not found.");
        setKeys(draft, records.filter((r) => r.key !== key));
      });
      return done(result);
    },
    { ...adminDoc("DELETE /admin/keys/:key"), admin: true, params: KeyParams },
  );
}
