// GET /admin/audit (issue 31): admin writes, newest first, filtered by time, actor, route and outcome, paged by
// cursor. Entries hold no secret (audit-diff.ts masks them before they are stored).
import type { AppContext } from "../../context";
import type { AdminApp } from "../../http/admin-edge";
import { json } from "../../http/json-response";
import { parseRequestQuery } from "../../metering/request-query";
import { adminDoc } from "./route-docs";
import { AuditQuery } from "./query-schema";

export function auditRoutes(app: AdminApp, ctx: AppContext): void {
  app.get(
    "/admin/audit",
    async ({ query }) => {
      // With Redis, the other instances' entries come in with the request log's (shared/redis-request-log.ts).
      await ctx.ops?.requestLog?.fresh();
      // Time range, limit and cursor read as the request log reads them.
      const base = parseRequestQuery(query);
      const ok = query.ok;
      const audit = ctx.ops?.audit;
      if (!audit) return json({ items: [], next_cursor: null });
      return json(
        audit.list({
          from: base.from,
          to: base.to,
          actor: query.actor?.trim() || undefined,
          route: query.route?.trim() || undefined,
          ok: ok === undefined ? undefined : ok === "true",
          limit: base.limit,
          cursor: base.cursor,
        }),
      );
    },
    { ...adminDoc("GET /admin/audit"), admin: true, query: AuditQuery },
  );
}
