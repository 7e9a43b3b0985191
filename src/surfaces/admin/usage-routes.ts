// GET /admin/usage (issue 20): requests and tokens per key, model and UTC day over a date range, grouped as asked,
// as JSON or CSV (`format=csv`, for spreadsheets and billing scripts). Keys appear by fingerprint and, while still
// configured, by name; the full key never leaves the config.
import type { AppContext } from "../../context";
import { callerFingerprint } from "../../util/hash";
import type { UsageRow } from "../../metering/usage-store";
import { utcDay } from "../../metering/usage-store";
import { type Static } from "elysia";
import { json } from "../../http/json-response";
import type { AdminApp } from "../../http/admin-edge";
import { invalidRequest } from "../../util/invalid-request";
import { adminDoc } from "./route-docs";
import { UsageQuery as UsageQuerySchema } from "./query-schema";

const DIMENSIONS = ["key", "model", "day"] as const;
type Dimension = (typeof DIMENSIONS)[number];
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DEFAULT_DAYS = 30;

export interface UsageQuery {
  from: string;
  to: string;
  groupBy: Dimension[];
}

export interface UsageOut {
  day?: string;
  key?: string;
  key_name?: string;
  model?: string;
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export function parseUsageQuery(query: Static<typeof UsageQuerySchema>, now: number): UsageQuery {
  const to = dayParam(query.to, "to") ?? utcDay(now);
  const from = dayParam(query.from, "from") ?? utcDay(Date.parse(to) - (DEFAULT_DAYS - 1) * 86_400_000);
  if (from > to) throw invalidRequest("from must not be after to.");
  const raw = query.group_by;
  const groupBy = raw === undefined || raw.trim() === "" ? [...DIMENSIONS] : raw.split(",").map((s) => s.trim());
  for (const g of groupBy) if (!(DIMENSIONS as readonly string[]).includes(g)) throw invalidRequest(`group_by must list some of ${DIMENSIONS.join(", ")}.`);
  return { from, to, groupBy: [...new Set(groupBy)] as Dimension[] };
}

function dayParam(raw: string | undefined, name: string): string | undefined {
  const v = raw?.trim();
  if (!v) return undefined;
  if (!DAY.test(v) || Number.isNaN(Date.parse(v)) || new Date(v).toISOString().slice(0, 10) !== v) throw invalidRequest(`${name} must be a UTC day as YYYY-MM-DD.`);
  return v;
}

/** Rows inside [from, to], summed over the dimensions not grouped by, sorted by day, key, model. */
export function aggregateUsage(rows: UsageRow[], q: UsageQuery, keyNames: Map<string, string>): UsageOut[] {
  const groups = new Map<string, UsageOut>();
  for (const r of rows) {
    if (r.day < q.from || r.day > q.to) continue;
    const id = q.groupBy.map((g) => r[g]).join("\u0000");
    let out = groups.get(id);
    if (!out) {
      out = { requests: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
      if (q.groupBy.includes("day")) out.day = r.day;
      if (q.groupBy.includes("key")) {
        out.key = r.key;
        out.key_name = keyNames.get(r.key) ?? "";
      }
      if (q.groupBy.includes("model")) out.model = r.model;
      groups.set(id, out);
    }
    out.requests += r.requests;
    out.prompt_tokens += r.prompt_tokens;
    out.completion_tokens += r.completion_tokens;
    out.total_tokens += r.prompt_tokens + r.completion_tokens;
  }
  const order = (o: UsageOut) => `${o.day ?? ""}\u0000${o.key ?? ""}\u0000${o.model ?? ""}`;
  return [...groups.values()].sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

// RFC 4180 quoting; a leading = + - @ is defused so a spreadsheet never runs a key name as a formula.
function csvCell(v: string | number | undefined): string {
  let s = String(v ?? "");
  if (/^[=+\-@]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function usageCsv(rows: UsageOut[], q: UsageQuery): string {
  const cols: (keyof UsageOut)[] = [];
  if (q.groupBy.includes("day")) cols.push("day");
  if (q.groupBy.includes("key")) cols.push("key", "key_name");
  if (q.groupBy.includes("model")) cols.push("model");
  cols.push("requests", "prompt_tokens", "completion_tokens", "total_tokens");
  return [cols.join(","), ...rows.map((r) => cols.map((c) => csvCell(r[c])).join(","))].join("\r\n") + "\r\n";
}

function keyNames(ctx: AppContext): Map<string, string> {
  const c = ctx.config.get();
  const names = new Map<string, string>();
  for (const k of c.keys ?? []) names.set(callerFingerprint(k), "");
  for (const r of c.api_keys ?? []) names.set(callerFingerprint(r.key), r.name ?? "");
  return names;
}

export function usageRoutes(app: AdminApp, ctx: AppContext): void {
  app.get(
    "/admin/usage",
    ({ query }) => {
      const q = parseUsageQuery(query, ctx.now());
      const rows = aggregateUsage(ctx.ops?.usage.rows() ?? [], q, keyNames(ctx));
      const format = query.format ?? "json";
      if (format === "csv")
        return new Response(usageCsv(rows, q), {
          headers: {
            "Content-Type": "text/csv; charset=utf-8",
            "Content-Disposition": `attachment; filename="usage-${q.from}-${q.to}.csv"`,
            "Cache-Control": "no-store",
          },
        });
      const totals = rows.reduce(
        (t, r) => ({ requests: t.requests + r.requests, prompt_tokens: t.prompt_tokens + r.prompt_tokens, completion_tokens: t.completion_tokens + r.completion_tokens, total_tokens: t.total_tokens + r.total_tokens }),
        { requests: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      );
      return json({ from: q.from, to: q.to, group_by: q.groupBy, rows, totals });
    },
    { ...adminDoc("GET /admin/usage"), admin: true, query: UsageQuerySchema },
  );
}
