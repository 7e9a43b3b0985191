// Traffic figures from the request log (issue 31): the overview's last hour / last day (requests per minute,
// error rate, time to first token and queue wait percentiles, tokens) and the Usage page's series (hour or
// day buckets by key, model or account). All in SQL over the `ts` index; percentiles by ORDER BY … OFFSET.
import type { Database } from "bun:sqlite";

export interface TrafficSummary {
  window_seconds: number;
  requests: number;
  requests_per_minute: number;
  errors: number;
  error_rate: number;
  status: { "2xx": number; "4xx": number; "5xx": number; other: number };
  ttft_ms: { p50: number | null; p95: number | null };
  queue_ms: { p50: number | null; p95: number | null };
  input_tokens: number;
  output_tokens: number;
}

function percentile(db: Database, column: "ttft_ms" | "queue_ms", since: number, p: number): number | null {
  const n = (db.query(`SELECT count(*) AS n FROM requests WHERE ts >= ? AND ${column} IS NOT NULL`).get(since) as { n: number }).n;
  if (n === 0) return null;
  const at = Math.min(n - 1, Math.max(0, Math.ceil(p * n) - 1));
  const row = db.query(`SELECT ${column} AS v FROM requests WHERE ts >= ? AND ${column} IS NOT NULL ORDER BY ${column} LIMIT 1 OFFSET ?`).get(since, at) as { v: number };
  return Math.round(row.v);
}

/** "Errors" are 5xx answers, 429s and in-stream failures (a 200 with an error code); client mistakes (other 4xx) are not the gateway's. */
export function trafficSummary(db: Database, now: number, windowMs: number): TrafficSummary {
  const since = now - windowMs;
  const r = db
    .query(
      `SELECT count(*) AS n,
        sum(status >= 200 AND status < 300) AS s2, sum(status >= 400 AND status < 500) AS s4, sum(status >= 500) AS s5,
        sum(status >= 500 OR status = 429 OR (status < 300 AND error_code != '' AND aborted = 0)) AS errors,
        coalesce(sum(input_tokens), 0) AS input, coalesce(sum(output_tokens), 0) AS output
       FROM requests WHERE ts >= ?`,
    )
    .get(since) as Record<string, number | null>;
  const n = r.n ?? 0;
  const s2 = r.s2 ?? 0;
  const s4 = r.s4 ?? 0;
  const s5 = r.s5 ?? 0;
  return {
    window_seconds: Math.round(windowMs / 1000),
    requests: n,
    requests_per_minute: Math.round((n / (windowMs / 60_000)) * 100) / 100,
    errors: r.errors ?? 0,
    error_rate: n ? Math.round(((r.errors ?? 0) / n) * 10_000) / 10_000 : 0,
    status: { "2xx": s2, "4xx": s4, "5xx": s5, other: n - s2 - s4 - s5 },
    ttft_ms: { p50: percentile(db, "ttft_ms", since, 0.5), p95: percentile(db, "ttft_ms", since, 0.95) },
    queue_ms: { p50: percentile(db, "queue_ms", since, 0.5), p95: percentile(db, "queue_ms", since, 0.95) },
    input_tokens: r.input ?? 0,
    output_tokens: r.output ?? 0,
  };
}

export type Bucket = "hour" | "day";
export type SeriesGroup = "key" | "model" | "account" | "none";

/** GET /admin/usage/series: the rows of one bucket size and grouping over a time range. */
export interface SeriesPage {
  from: string;
  to: string;
  bucket: Bucket;
  group_by: SeriesGroup;
  rows: SeriesRow[];
}

export interface SeriesRow {
  /** Bucket start, ISO 8601 UTC. */
  bucket: string;
  group: string;
  requests: number;
  errors: number;
  input_tokens: number;
  output_tokens: number;
}

const GROUP_SQL: Record<SeriesGroup, string> = {
  key: "CASE WHEN key_name != '' THEN key_name WHEN key_fp != '' THEN key_fp WHEN caller_kind = 'passthrough' THEN 'passthrough' ELSE '' END",
  model: "resolved_model",
  account: "account",
  none: "''",
};

/** Business traffic only (the admin surface is left out), bucketed by UTC hour or day. */
export function usageSeries(db: Database, q: { from: number; to: number; bucket: Bucket; group: SeriesGroup }): SeriesRow[] {
  const size = q.bucket === "hour" ? 3_600_000 : 86_400_000;
  const rows = db
    .query(
      `SELECT (ts / ${size}) * ${size} AS b, ${GROUP_SQL[q.group]} AS g, count(*) AS requests,
        sum(status >= 500 OR status = 429 OR (status < 300 AND error_code != '' AND aborted = 0)) AS errors,
        coalesce(sum(input_tokens), 0) AS input, coalesce(sum(output_tokens), 0) AS output
       FROM requests WHERE ts >= ? AND ts < ? AND surface != 'admin' GROUP BY b, g ORDER BY b, g`,
    )
    .all(q.from, q.to) as { b: number; g: string | null; requests: number; errors: number; input: number; output: number }[];
  return rows.map((r) => ({ bucket: new Date(r.b).toISOString(), group: r.g ?? "", requests: r.requests, errors: r.errors ?? 0, input_tokens: r.input, output_tokens: r.output }));
}
