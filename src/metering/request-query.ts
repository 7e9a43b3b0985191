// GET /admin/requests filters (issue 31): the query string (checked by the route's schema) into a RequestQuery, then into one
// parameterised WHERE clause. Every value is bound, never spliced into the SQL.
import { invalidRequest } from "../util/invalid-request";

export interface RequestQuery {
  /** Unix ms, inclusive. */
  from?: number;
  /** Unix ms, exclusive. */
  to?: number;
  /** "2xx" … "5xx", or an exact status such as "429". */
  status?: string;
  errorCode?: string;
  /** A key's name or its fingerprint (caller:…). */
  key?: string;
  /** The requested or the resolved model. */
  model?: string;
  surface?: string;
  /** The masked account label, as the log shows it. */
  account?: string;
  /** Text inside the request id. */
  q?: string;
  limit: number;
  /** The seq below which the page starts (the previous page's next_cursor). */
  cursor?: number;
}

/** The query string as the route's `query:` schema hands it over (surfaces/admin/query-schema.ts): limit is already a checked integer. */
export interface RequestQueryInput {
  from?: string;
  to?: string;
  status?: string;
  error_code?: string;
  key?: string;
  model?: string;
  surface?: string;
  account?: string;
  q?: string;
  limit?: number;
  cursor?: string;
}

/** ISO 8601 or Unix milliseconds. */
function timeParam(raw: string | undefined, name: string): number | undefined {
  const v = raw?.trim();
  if (!v) return undefined;
  const n = /^\d+$/.test(v) ? Number(v) : Date.parse(v);
  if (!Number.isFinite(n)) throw invalidRequest(`${name} must be an ISO 8601 time or Unix milliseconds.`);
  return n;
}

function text(raw: string | undefined, name: string): string | undefined {
  const v = raw?.trim();
  if (!v) return undefined;
  if (v.length > 256) throw invalidRequest(`${name} is too long.`);
  return v;
}

export function parseRequestQuery(input: RequestQueryInput): RequestQuery {
  const status = text(input.status, "status");
  if (status !== undefined && !/^([1-5]xx|[1-5]\d\d)$/.test(status)) throw invalidRequest("status must be a class such as 4xx or a status such as 429.");
  const rawCursor = input.cursor?.trim();
  if (rawCursor && !/^\d{1,15}$/.test(rawCursor)) throw invalidRequest("cursor must be a next_cursor from a previous page.");
  return {
    from: timeParam(input.from, "from"),
    to: timeParam(input.to, "to"),
    status,
    errorCode: text(input.error_code, "error_code"),
    key: text(input.key, "key"),
    model: text(input.model, "model"),
    surface: text(input.surface, "surface"),
    account: text(input.account, "account"),
    q: text(input.q, "q"),
    limit: input.limit ?? 50,
    cursor: rawCursor ? Number(rawCursor) : undefined,
  };
}

export function buildWhere(q: RequestQuery): { sql: string; params: (string | number)[] } {
  const parts: string[] = [];
  const params: (string | number)[] = [];
  const add = (sql: string, ...values: (string | number)[]) => {
    parts.push(sql);
    params.push(...values);
  };
  if (q.from !== undefined) add("ts >= ?", q.from);
  if (q.to !== undefined) add("ts < ?", q.to);
  if (q.status?.endsWith("xx")) {
    const c = Number(q.status[0]) * 100;
    add("status >= ? AND status < ?", c, c + 100);
  } else if (q.status) add("status = ?", Number(q.status));
  if (q.errorCode) add("error_code = ?", q.errorCode);
  if (q.key) add("(key_name = ? OR key_fp = ?)", q.key, q.key);
  if (q.model) add("(model = ? OR resolved_model = ?)", q.model, q.model);
  if (q.surface) add("surface = ?", q.surface);
  if (q.account) add("account = ?", q.account);
  // instr, not LIKE: a % or _ in the text is literal.
  if (q.q) add("instr(request_id, ?) > 0", q.q);
  return { sql: parts.length ? `WHERE ${parts.join(" AND ")}` : "", params };
}
