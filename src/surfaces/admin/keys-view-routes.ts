// GET /admin/keys (issue 31): every managed key with what the Keys page shows beside it — its quota and access
// fields, today's usage (UTC day, from the usage store) and when it was last used (from the request log).
import type { AppContext } from "../../context";
import type { AdminApp } from "../../http/admin-edge";
import { json } from "../../http/json-response";
import { utcDay } from "../../metering/usage-store";
import { callerFingerprint } from "../../util/hash";
import { keyRecords } from "./config-edit";
import { accessView } from "./key-access";
import { adminDoc } from "./route-docs";

export function keysViewRoutes(app: AdminApp, ctx: AppContext): void {
  app.get(
    "/admin/keys",
    async () => {
      const now = ctx.now();
      const today = utcDay(now);
      const usage = new Map<string, { requests: number; tokens: number }>();
      for (const r of ctx.ops?.usage.rows() ?? []) {
        if (r.day !== today) continue;
        const u = usage.get(r.key) ?? { requests: 0, tokens: 0 };
        u.requests += r.requests;
        u.tokens += r.prompt_tokens + r.completion_tokens;
        usage.set(r.key, u);
      }
      const log = ctx.ops?.requestLog;
      await log?.fresh();
      const last = new Map<string, number>(log ? await log.read<[string, number][]>("lastUsedByKey") : []);
      const keys = keyRecords(ctx.config.get()).map((r) => {
        const fp = callerFingerprint(r.key);
        const access = accessView(r);
        const expired = access.expires_at !== null && now >= access.expires_at * 1000;
        return {
          key: r.key,
          fingerprint: fp,
          name: r.name ?? "",
          remark: r.remark ?? "",
          quota: { requests_per_minute: r.quota?.requests_per_minute ?? null, tokens_per_day: r.quota?.tokens_per_day ?? null },
          ...access,
          state: !access.enabled ? "disabled" : expired ? "expired" : "active",
          today: usage.get(fp) ?? { requests: 0, tokens: 0 },
          last_used_at: last.has(fp) ? new Date(last.get(fp)!).toISOString() : null,
        };
      });
      return json({ keys, day: today });
    },
    { ...adminDoc("GET /admin/keys"), admin: true },
  );
}
