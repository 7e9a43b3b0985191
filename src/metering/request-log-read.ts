// The request log's reads (issue 31), as plain functions of a Database: run on the event loop for an in-memory
// log, and in a worker thread on its own read-only connection for the file (request-log-reader.ts), where a scan
// of 200,000 rows (a lookup by id, the day's percentiles) takes a second without stopping the gateway.
import type { Database } from "bun:sqlite";
import { fromRow, type RequestPage } from "./request-log";
import type { RequestRecord } from "./request-record";
import { buildWhere, type RequestQuery } from "./request-query";
import { trafficSummary, usageSeries } from "./request-stats";

type Row = Record<string, string | number | null>;

export function queryRows(db: Database, q: RequestQuery): RequestPage {
  const { sql, params } = buildWhere(q);
  const cursorSql = q.cursor !== undefined ? `${sql ? `${sql} AND` : "WHERE"} seq < ?` : sql;
  const all = q.cursor !== undefined ? [...params, q.cursor] : params;
  const rows = db.query(`SELECT * FROM requests ${cursorSql} ORDER BY seq DESC LIMIT ?`).all(...all, q.limit + 1) as Row[];
  const more = rows.length > q.limit;
  const items = rows.slice(0, q.limit).map(fromRow);
  return { items, next_cursor: more ? String(items[items.length - 1]!.seq) : null };
}

/** Every row with this request id (a client may reuse its own X-Request-Id), newest first. */
export function rowsById(db: Database, requestId: string): (RequestRecord & { seq: number })[] {
  return (db.query("SELECT * FROM requests WHERE request_id = ? ORDER BY seq DESC LIMIT 20").all(requestId) as Row[]).map(fromRow);
}

/** The last arrival of a request per configured key fingerprint (the Keys page's "last used"), as pairs. */
export function lastUsedByKey(db: Database): [string, number][] {
  const rows = db.query("SELECT key_fp, max(ts) AS last FROM requests WHERE key_fp != '' GROUP BY key_fp").all() as { key_fp: string; last: number }[];
  return rows.map((r) => [r.key_fp, r.last]);
}

export const READS = {
  query: queryRows,
  byId: rowsById,
  lastUsedByKey,
  traffic: (db: Database, now: number, windowMs: number) => trafficSummary(db, now, windowMs),
  series: usageSeries,
};

export type ReadOp = keyof typeof READS;
