// GET /admin/traffic (the overview's traffic, issue 31) and GET /admin/usage/series (the Usage page's charts and
// CSV). Both read the request log; the account states come from ops/account-states.ts, where each account is
// in exactly one of available / in use / cooling down / login failed.
import type { AppContext } from "../../context";
import type { AdminApp } from "../../http/admin-edge";
import { json } from "../../http/json-response";
import { accountStates, stateCounts } from "../../metering/account-states";
import type { Bucket, SeriesGroup, SeriesPage, SeriesRow, TrafficSummary } from "../../metering/request-stats";
import { parseRequestQuery } from "../../metering/request-query";
import { invalidRequest } from "../../util/invalid-request";
import { adminDoc } from "./route-docs";
import type { TrafficAnswer } from "./answer-schema-ops";
import { SeriesQuery } from "./query-schema";

const HOUR = 3_600_000;
const DAY = 86_400_000;

function csvCell(v: string | number): string {
  let s = String(v);
  if (/^[=+\-@]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function trafficRoutes(app: AdminApp, ctx: AppContext): void {
  app.get(
    "/admin/traffic",
    async () => {
      const now = ctx.now();
      const log = ctx.ops?.requestLog;
      await log?.fresh();
      const rows = accountStates(ctx);
      const dayStart = Math.floor(now / DAY) * DAY;
      const summary = (windowMs: number) => (log ? log.read<TrafficSummary>("traffic", now, windowMs) : Promise.resolve(null));
      const [lastHour, lastDay, today] = await Promise.all([summary(HOUR), summary(DAY), summary(now - dayStart)]);
      return json({
        enabled: Boolean(log),
        last_hour: lastHour,
        last_day: lastDay,
        today,
        accounts: rows.map((r) => ({ label: r.label, in_flight: r.inFlight, state: r.state })),
        pool: { ...stateCounts(rows), total: rows.length, waiting: ctx.pool.status().waiting },
      } satisfies TrafficAnswer);
    },
    { ...adminDoc("GET /admin/traffic"), admin: { quiet: true } },
  );
  app.get(
    "/admin/usage/series",
    async ({ query }) => {
      const base = parseRequestQuery(query);
      const bucket: Bucket = query.bucket ?? "hour";
      const group: SeriesGroup = query.group_by ?? "none";
      const now = ctx.now();
      const to = base.to ?? now;
      const from = base.from ?? to - (bucket === "hour" ? DAY : 30 * DAY);
      if (from >= to) throw invalidRequest("from must be before to.");
      const log = ctx.ops?.requestLog;
      await log?.fresh();
      const rows = log ? await log.read<SeriesRow[]>("series", { from, to, bucket, group }) : [];
      if (query.format === "csv") {
        const cols = ["bucket", "group", "requests", "errors", "input_tokens", "output_tokens"] as const;
        const body = [cols.join(","), ...rows.map((r) => cols.map((c) => csvCell(r[c])).join(","))].join("\r\n") + "\r\n";
        return new Response(body, {
          headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="usage-${bucket}-${group}.csv"`, "Cache-Control": "no-store" },
        });
      }
      return json({ from: new Date(from).toISOString(), to: new Date(to).toISOString(), bucket, group_by: group, rows } satisfies SeriesPage);
    },
    { ...adminDoc("GET /admin/usage/series"), admin: true, query: SeriesQuery },
  );
}
