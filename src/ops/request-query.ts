// GET /admin/requests filters (issue 31): parsed from the query string into a RequestQuery, then into one
// parameterised WHERE clause. Every value is bound, never spliced into the SQL.
import { GatewayError } from "../util/gateway-error";

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

const bad = (msg: string) => new GatewayError(400, "invalid_request", msg);

/** ISO 8601 or Unix milliseconds. */
function timeParam(url: URL, name: string): number | undefined {
  const v = url.searchParams.get(name)?.trim();
  if (!v) return undefined;
  const n = /^\d+$/.test(v) ? Number(v) : Date.parse(v);
  if (!Number.isFinite(n)) throw bad(`${name} must be an ISO 8601 time or Unix milliseconds.`);
  return n;
}

function text(url: URL, name: string): string | undefined {
  const v = url.searchParams.get(name)?.trim();
  if (!v) return undefined;
  if (v.length > 256) throw bad(`${name} is too long.`);
  return v;
}

export function parseRequestQuery(url: URL): RequestQuery {
  const status = text(url, "status");
  if (status !== undefined && !/^([1-5]xx|[1-5]\d\d)$/.test(status)) throw bad("status must be a class such as 4xx or a status such as 429.");
  const rawLimit = url.searchParams.get("limit")?.trim();
  const limit = rawLimit ? Number(rawLimit) : 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw bad("limit must be an integer between 1 and 500.");
  const rawCursor = url.searchParams.get("cursor")?.trim();
  if (rawCursor && !/^\d{1,15}$/.test(rawCursor)) throw bad("cursor must be a next_cursor from a previous page.");
  return {
    from: timeParam(url, "from"),
    to: timeParam(url, "to"),
    status,
    errorCode: text(url, "error_code"),
    key: text(url, "key"),
    model: text(url, "model"),
    surface: text(url, "surface"),
    account: text(url, "account"),
    q: text(url, "q"),
    limit,
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
