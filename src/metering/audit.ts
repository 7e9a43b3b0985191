// The audit log (issue 31): every admin write — accounts, keys, proxies, settings, config import, password,
// sign-in success and failure — with its time, actor (the admin key, a console JWT, or a sign-in attempt),
// client address, route, status and what it changed (audit-diff.ts, secrets masked). Kept in the request
// log's database (table `audit`) under the same retention; in memory when the request log is off.
// What changed is read from the config store's change events: those that happen while an admin write is in
// flight are that write's (two writes at the same moment may see each other's; they are rare and still logged).
import type { Database } from "bun:sqlite";
import { sqlite } from "./sqlite";
import type { Config } from "../config/schema";
import type { RequestState } from "./request-state";
import { diffConfigs, type Change } from "./audit-diff";

/** GET /admin/audit: a page of the audit log, newest first, and the cursor of the next one. */
export interface AuditPage {
  items: AuditEntry[];
  next_cursor: string | null;
}

export interface AuditEntry {
  seq?: number;
  ts: number;
  request_id: string;
  actor: string;
  client_ip: string;
  method: string;
  route: string;
  path: string;
  status: number;
  ok: boolean;
  changes: Change[];
}

const DAY_MS = 86_400_000;
const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const KEEP_CHANGES_MS = 10 * 60_000;

export class AuditTrail {
  private readonly insert;
  private changes: { at: number; before: Config; after: Config }[] = [];
  /** Told of each entry this instance wrote (the Redis replication shares it). */
  onWritten?: (entry: AuditEntry) => void;

  constructor(
    readonly db: Database,
    private readonly opts: {
      now: () => number;
      retentionDays: () => number;
      /** "admin_key", "jwt", or "" for a request without an admin credential. */
      actorOf: (headers: Headers) => string;
      warn: (msg: string, fields?: Record<string, unknown>) => void;
    },
  ) {
    db.exec(`CREATE TABLE IF NOT EXISTS audit (
      seq INTEGER PRIMARY KEY AUTOINCREMENT, ts INTEGER NOT NULL, request_id TEXT, actor TEXT, client_ip TEXT,
      method TEXT, route TEXT, path TEXT, status INTEGER, ok INTEGER, changes TEXT)`);
    db.exec("CREATE INDEX IF NOT EXISTS audit_ts ON audit (ts)");
    this.insert = db.prepare("INSERT INTO audit (ts, request_id, actor, client_ip, method, route, path, status, ok, changes) VALUES (?,?,?,?,?,?,?,?,?,?)");
  }

  static inMemory(opts: ConstructorParameters<typeof AuditTrail>[1]): AuditTrail {
    return new AuditTrail(new (sqlite().Database)(":memory:"), opts);
  }

  /** The config store's listener. */
  configChanged(next: Config, prev: Config): void {
    const at = performance.now();
    this.changes.push({ at, before: prev, after: next });
    // Changes no admin request claims (a shared config synced from another instance) are forgotten in time.
    while (this.changes.length > 0 && at - this.changes[0]!.at > KEEP_CHANGES_MS) this.changes.shift();
  }

  /** Called for every answered request; records admin writes only. */
  requestEnded(state: RequestState, status: number, request: { method: string; headers: Headers }, surface: string, path: string): void {
    if (surface !== "admin" || !WRITE_METHODS.has(request.method)) return;
    const mine = this.changes.filter((c) => c.at >= state.start);
    if (mine.length) this.changes = this.changes.filter((c) => c.at < state.start);
    const changes = mine.length ? diffConfigs(mine[0]!.before, mine[mine.length - 1]!.after) : [];
    const route = state.route ?? "";
    const actor = route === "/admin/login" ? "sign-in" : this.opts.actorOf(request.headers);
    const entry: AuditEntry = { ts: this.opts.now(), request_id: state.id, actor, client_ip: state.clientIp, method: request.method, route, path, status, ok: status < 400, changes };
    try {
      this.write(entry);
      this.onWritten?.(entry);
    } catch (e) {
      // The audit never fails the admin write it describes; the failure is said.
      this.opts.warn("audit log write failed", { error: String((e as Error)?.message ?? e), request_id: state.id });
    }
  }

  private write(e: AuditEntry): void {
    this.insert.run(e.ts, e.request_id, e.actor, e.client_ip, e.method, e.route, e.path, e.status, e.ok ? 1 : 0, JSON.stringify(e.changes));
  }

  /** Entries another instance wrote (Redis replication); called inside the replica's transaction. */
  insertReplicated(entries: AuditEntry[]): void {
    for (const e of entries) this.write(e);
  }

  list(q: { from?: number; to?: number; actor?: string; route?: string; ok?: boolean; limit: number; cursor?: number }): AuditPage {
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (q.from !== undefined) where.push("ts >= ?") && params.push(q.from);
    if (q.to !== undefined) where.push("ts < ?") && params.push(q.to);
    if (q.actor) where.push("actor = ?") && params.push(q.actor);
    if (q.route) where.push("route = ?") && params.push(q.route);
    if (q.ok !== undefined) where.push("ok = ?") && params.push(q.ok ? 1 : 0);
    if (q.cursor !== undefined) where.push("seq < ?") && params.push(q.cursor);
    const sql = `SELECT * FROM audit ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY seq DESC LIMIT ?`;
    const rows = this.db.query(sql).all(...params, q.limit + 1) as Record<string, any>[];
    const items = rows.slice(0, q.limit).map((r) => ({ ...r, ok: r.ok === 1, changes: JSON.parse(r.changes ?? "[]") }) as AuditEntry);
    return { items, next_cursor: rows.length > q.limit ? String(items[items.length - 1]!.seq) : null };
  }

  prune(): void {
    try {
      this.db.run("DELETE FROM audit WHERE ts < ?", [this.opts.now() - this.opts.retentionDays() * DAY_MS]);
    } catch {}
  }
}
