// Business API keys (gateway.md "Keys", D2.7, D11.4). Keys are record identifiers and are shown to admins;
// the access log redacts the path segment (D3.6).
import type { AppContext } from "../../context";
import { KEY_PROBLEM, type ApiKeyRecord } from "../../config/schema";
import { json, RAW_BODY, type RouteApp } from "../route-kit";
import { admin, badRequest, conflict, notFound, optString, pathParam, readBody, writeInfo } from "./admin-kit";
import { keyRecords, setKeys } from "./config-edit";
import { applyQuota, quotaFromBody } from "./key-quota";

const KEY = /^\S{1,256}$/u;

export function keysRoutes(app: RouteApp, ctx: AppContext): void {
  const done = (result: { config_writable: boolean; config_warning?: string }) =>
    json({ success: true, total_keys: ctx.config.managedKeyCount(), ...writeInfo(result) });

  app.post(
    "/admin/keys",
    admin(ctx, "/admin/keys", async ({ request }) => {
      const body = await readBody(request);
      const key = optString(body, "key");
      if (key === undefined || !KEY.test(key) || [...key].length > 256) throw badRequest(`key ${KEY_PROBLEM}.`);
      const name = optString(body, "name") ?? "";
      const remark = optString(body, "remark") ?? "";
      const quota = quotaFromBody(body);
      const result = await ctx.config.update((c) => {
        const records = keyRecords(c);
        if (records.some((r) => r.key === key)) throw conflict("Key already exists.");
        const rec: ApiKeyRecord = { key, name, remark };
        applyQuota(rec, quota);
        setKeys(c, [...records, rec]);
      });
      return done(result);
    }),
    RAW_BODY,
  );

  app.put(
    "/admin/keys/:key",
    admin(ctx, "/admin/keys/{key}", async (c) => {
      const key = pathParam(c, "key");
      const body = await readBody(c.request);
      const name = optString(body, "name");
      const remark = optString(body, "remark");
      const quota = quotaFromBody(body);
      const result = await ctx.config.update((draft) => {
        const records = keyRecords(draft);
        const rec = records.find((r) => r.key === key);
        if (!rec) throw notFound("Key not found.");
        if (name !== undefined) rec.name = name;
        if (remark !== undefined) rec.remark = remark;
        applyQuota(rec, quota);
        setKeys(draft, records);
      });
      return done(result);
    }),
    RAW_BODY,
  );

  app.delete(
    "/admin/keys/:key",
    admin(ctx, "/admin/keys/{key}", async (c) => {
      const key = pathParam(c, "key");
      const result = await ctx.config.update((draft) => {
        const records = keyRecords(draft);
        if (!records.some((r) => r.key === key)) throw notFound("Key not found.");
        setKeys(draft, records.filter((r) => r.key !== key));
      });
      return done(result);
    }),
  );
}
