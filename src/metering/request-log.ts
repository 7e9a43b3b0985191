// The request log's store (issue 31): bun:sqlite, WAL, in <data dir>/requests.sqlite (or in memory for the demo
// and for a data directory that cannot hold it). Rows are queued by `add` — synchronous, allocation only —
// and written in one transaction per batch from a timer, never on a request's path. A failed write (a full disk,
// a file another process holds locked) keeps the batch for the next try, up to a bound, and is logged and
// counted; it never reaches a request. Retention (days, rows) is applied on a timer and after each open.
import type { Database, Statement } from "bun:sqlite";
import { existsSync } from "node:fs";
import { sqlite } from "./sqlite";
import type { Logger } from "../util/log";
import { COLUMNS, recordOfRow, toRow, type RequestRecord, type RowValues } from "./request-record";
import type { RequestQuery } from "./request-query";
import { queryRows, rowsById, type ReadOp } from "./request-log-read";
import { RequestLogReader } from "./request-log-reader";

export interface RequestLogSettings {
  retentionDays: number;
  maxRows: number;
}

export interface RequestLogCounters {
  written: number;
  /** Batch writes that failed (each retried later while the pending bound allows). */
  failures: number;
  /** Rows given up: the pending queue was full while writes kept failing. */
  dropped: number;
}

/** A logged request as the admin API sends it: the record and its row number (the page's stable key). */
export type LoggedRequest = RequestRecord & { seq: number };

/** GET /admin/requests: a page of the log, newest first, and the cursor of the next one. */
export interface RequestPage {
  items: LoggedRequest[];
  next_cursor: string | null;
}

const FLUSH_MS = 200;
const BIG_BATCH = 500;
const MAX_PENDING = 20_000;
const PRUNE_MS = 60_000;
const DAY_MS = 86_400_000;
// WAL checkpoints (copying the WAL into the file, then an fsync) run on the reader thread at most once a second
// after rows were written; the event loop's connection checkpoints only as a backstop, when the WAL has grown to
// this many pages (≈ 32 MiB) because the thread's checkpoints stopped: SQLite's own checkpoints on the event loop
// cost CPU per row and an fsync stall every few thousand rows (docs/PERFORMANCE.md, "The request log's cost").
const CHECKPOINT_MS = 1000;
const BACKSTOP_PAGES = 8000;


// Measured per row (issue 31's ≤ 3 % budget): an index over the random request ids (or a hash of them) costs
// several times the insert itself — each row lands on a random B-tree page — and AUTOINCREMENT adds a
// sqlite_sequence update per insert. So: seq is the rowid (it only grows while rows leave from the bottom), only
// `ts` (arriving in order) is indexed, a lookup by request id scans (tens of ms over 200,000 rows, for one admin
// click), and replicated rows are deduplicated by reading each stream entry once (redis-request-log.ts: rows and
// stream position in one transaction), not by a UNIQUE index.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS requests (
  seq INTEGER PRIMARY KEY,
  ts INTEGER NOT NULL, request_id TEXT NOT NULL, instance TEXT NOT NULL, method TEXT, path TEXT, route TEXT,
  surface TEXT, key_name TEXT, key_fp TEXT, caller_kind TEXT, client_ip TEXT, user_agent TEXT, model TEXT,
  resolved_model TEXT, stream INTEGER, status INTEGER NOT NULL, error_code TEXT, aborted INTEGER, account TEXT,
  input_tokens INTEGER, output_tokens INTEGER, reasoning_tokens INTEGER, duration_ms INTEGER, ttft_ms REAL,
  queue_ms REAL, attempts TEXT, timeline TEXT, history_id TEXT, error_message TEXT
);
CREATE INDEX IF NOT EXISTS requests_ts ON requests (ts);
DROP INDEX IF EXISTS requests_id;
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT);
`;

type Row = Record<string, string | number | null>;

export function fromRow(row: Row): LoggedRequest {
  const out: Record<string, unknown> = { seq: row.seq };
  for (const c of COLUMNS) out[c] = row[c];
  out.stream = row.stream === 1;
  out.aborted = row.aborted === 1;
  out.attempts = JSON.parse(String(row.attempts ?? "{}"));
  out.timeline = JSON.parse(String(row.timeline ?? "{}"));
  out.error_message ??= "";
  return out as unknown as LoggedRequest;
}

export class RequestLog {
  readonly counters: RequestLogCounters = { written: 0, failures: 0, dropped: 0 };
  /** Told of rows written by this instance (the Redis replication publishes them). */
  onWritten?: (rows: RequestRecord[]) => void;
  /** Brings in other instances' rows before a read (Redis replication); absent in one process. */
  beforeRead?: () => Promise<void>;
  /** Runs after each retention pass (the audit log shares the retention). */
  onPrune?: () => void;
  private pending: RowValues[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private pruneTimer: ReturnType<typeof setInterval>;
  private insert!: Statement;
  private lastWarn = 0;
  private closed = false;
  private reader: RequestLogReader | null = null;
  private checkpointing = false;
  /** When the last checkpoint was asked for (performance.now()); none yet: any time is late enough. */
  private lastCheckpoint = -Infinity;
  /** The checkpoint a write too soon after the last one deferred, so that the rows of a burst's end are copied too. */
  private checkpointLater: ReturnType<typeof setTimeout> | null = null;
  private opened: Database | null = null;
  private where: string;
  private deferred = false;

  private constructor(
    /** The file to open (null: memory). */
    private readonly path: string | null,
    private readonly opts: { settings: () => RequestLogSettings; log: Logger; now: () => number },
  ) {
    this.where = path ?? ":memory:";
    this.pruneTimer = setInterval(() => this.pruneTick(), PRUNE_MS);
    this.pruneTimer.unref?.();
  }

  /** The database, opened by `open` or, when that was deferred, on first use (issue 35). */
  get db(): Database {
    return this.opened ?? this.openNow();
  }

  /** The file, or ":memory:" (also when the file turned out unusable). */
  get location(): string {
    return this.opened ? this.where : (this.db, this.where);
  }

  /**
   * Opens (or creates) the file in WAL mode; a file that cannot be opened is said once and memory used. With
   * `defer`, nothing is opened yet: rows queue in memory as always, and the file is opened by the first write,
   * read or retention pass, or by `openNow` (the server calls it once it has served its start, issue 35).
   */
  static open(opts: { path: string | null; settings: () => RequestLogSettings; log: Logger; now: () => number; defer?: boolean }): RequestLog {
    const log = new RequestLog(opts.path, opts);
    if (opts.defer) log.deferred = true;
    else log.openNow();
    return log;
  }

  /** Opens the database if it is not open yet; returns it. */
  openNow(): Database {
    if (this.opened) return this.opened;
    if (this.closed) throw new Error("request log closed");
    if (this.path) {
      let db: Database | undefined;
      try {
        db = new (sqlite().Database)(this.path, { create: true });
        db.exec("PRAGMA journal_mode = WAL");
        // NORMAL in WAL: a crash loses at most the last transactions, never the file's consistency.
        db.exec("PRAGMA synchronous = NORMAL");
        db.exec(`PRAGMA wal_autocheckpoint = ${BACKSTOP_PAGES}`);
        this.setUp(db, this.path);
        this.prune();
        return db;
      } catch (e) {
        this.opened = null;
        // Opened after the start (`defer`): a file another process holds locked at that moment is not an
        // unusable one. The open is tried again by the next write, the rows waiting as for a failed write.
        if (this.deferred && /locked|busy/i.test(String((e as Error)?.message))) {
          try {
            db?.close();
          } catch {}
          throw e;
        }
        this.opts.log.warn("request log file unusable; keeping the request log in memory", { path: this.path, error: String((e as Error)?.message ?? e) });
      }
    }
    const db = new (sqlite().Database)(":memory:");
    this.setUp(db, ":memory:");
    return db;
  }

  private setUp(db: Database, where: string): void {
    db.exec("PRAGMA busy_timeout = 20");
    db.exec(SCHEMA);
    // Files made before the column existed get it (added, empty, for their old rows).
    if (!(db.query("PRAGMA table_info(requests)").all() as { name: string }[]).some((c) => c.name === "error_message")) {
      db.exec("ALTER TABLE requests ADD COLUMN error_message TEXT");
    }
    this.insert = db.prepare(`INSERT INTO requests (${COLUMNS.join(",")}) VALUES (${COLUMNS.map(() => "?").join(",")})`);
    this.opened = db;
    this.where = where;
  }

  /** Queues a record (as a row); written within FLUSH_MS (sooner when many are waiting). Never throws. */
  add(rec: RequestRecord): void {
    this.addRow(toRow(rec));
  }

  /** Queues a row's values (request-record.ts rowOf: what a request's end makes). Never throws. */
  addRow(row: RowValues): void {
    if (this.closed) return;
    this.pending.push(row);
    if (this.pending.length > MAX_PENDING) {
      this.pending.shift();
      this.counters.dropped += 1;
    }
    if (this.pending.length >= BIG_BATCH) this.schedule(0);
    else if (this.timer === null) this.schedule(FLUSH_MS);
  }

  private schedule(ms: number): void {
    if (this.timer !== null) {
      if (ms > 0) return;
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flushNow();
    }, ms);
    this.timer.unref?.();
  }

  /** Writes what is queued; on failure the rows stay queued for the next timer. Returns whether it wrote. */
  flushNow(): boolean {
    if (this.pending.length === 0) return true;
    const batch = this.pending;
    this.pending = [];
    try {
      this.db.transaction(() => {
        // The row's array itself is the bindings (positional): spreading 29 values per row cost ≈ 10 % of the insert.
        for (const r of batch) this.insert.run(r as never);
      })();
      this.counters.written += batch.length;
      if (this.onWritten) this.onWritten(batch.map(recordOfRow));
      this.checkpointSoon();
      return true;
    } catch (e) {
      this.counters.failures += 1;
      this.pending = batch.concat(this.pending);
      const over = this.pending.length - MAX_PENDING;
      if (over > 0) {
        this.pending.splice(0, over);
        this.counters.dropped += over;
      }
      const now = this.opts.now();
      if (now - this.lastWarn > 60_000) {
        this.lastWarn = now;
        this.opts.log.warn("request log write failed; rows kept for the next try", { error: String((e as Error)?.message ?? e), pending: this.pending.length });
      }
      if (!this.closed) this.schedule(FLUSH_MS * 5);
      return false;
    }
  }

  /**
   * Asks the reader thread for a checkpoint, at most one at a time and one per CHECKPOINT_MS (file logs only). A
   * write that comes sooner, or while one runs, gets a checkpoint when the second is up, not only at the next
   * write: rows written at the end of a burst (or in a process's first second) reach the file without more traffic.
   */
  private checkpointSoon(): void {
    if (this.location === ":memory:" || this.closed) return;
    const wait = this.lastCheckpoint + CHECKPOINT_MS - performance.now();
    if (this.checkpointing || wait > 0) {
      if (this.checkpointLater === null) {
        // While a checkpoint runs past its second (a large WAL), look again every tenth of one.
        this.checkpointLater = setTimeout(() => {
          this.checkpointLater = null;
          this.checkpointSoon();
        }, Math.max(wait, this.checkpointing ? CHECKPOINT_MS / 10 : 0) + 1);
        this.checkpointLater.unref?.();
      }
      return;
    }
    this.lastCheckpoint = performance.now();
    this.checkpointing = true;
    this.reader ??= new RequestLogReader(this.db, this.location);
    this.reader.checkpoint().then(
      () => (this.checkpointing = false),
      // A failed checkpoint loses nothing (the rows are in the WAL); the backstop bounds the WAL meanwhile.
      () => (this.checkpointing = false),
    );
  }

  /** Before an admin read: this instance's queued rows written, the other instances' rows brought in. */
  async fresh(): Promise<void> {
    this.flushNow();
    await this.beforeRead?.();
  }

  /** Rows of other instances (Redis replication) and the stream position after them, in one transaction. */
  insertReplicated(rows: RequestRecord[], position: { name: string; value: string }, alsoInside?: () => void): void {
    this.db.transaction(() => {
      for (const r of rows) this.insert.run(...toRow(r));
      alsoInside?.();
      this.setMeta(position.name, position.value);
    })();
  }

  /**
   * The minute's retention pass. A deferred log that no one has used yet, over a file that does not exist (a
   * fresh data directory) or memory, holds no row to delete: it stays unopened, so an idle gateway that has
   * served nothing never loads SQLite (issue 35's idle RSS). A file left by an earlier run is opened and pruned.
   */
  private pruneTick(): void {
    if (!this.opened && (this.path === null || !existsSync(this.path))) return;
    this.prune();
  }

  /** Deletes rows past the retention period and beyond the row limit (oldest first). */
  prune(): void {
    try {
      const s = this.opts.settings();
      this.db.run("DELETE FROM requests WHERE ts < ?", [this.opts.now() - s.retentionDays * DAY_MS]);
      // seq only grows (AUTOINCREMENT) and rows leave from the bottom: keeping the top max_rows seq values keeps
      // at most max_rows rows, found on the primary key without counting the table.
      const top = (this.db.query("SELECT max(seq) AS hi FROM requests").get() as { hi: number | null }).hi;
      if (top !== null && top > s.maxRows) this.db.run("DELETE FROM requests WHERE seq <= ?", [top - s.maxRows]);
      this.onPrune?.();
    } catch (e) {
      this.opts.log.warn("request log prune failed", { error: String((e as Error)?.message ?? e) });
    }
  }

  query(q: RequestQuery): RequestPage {
    return queryRows(this.db, q);
  }

  /** Every row with this request id, newest first (synchronous: tests and the in-memory log). */
  byId(requestId: string): LoggedRequest[] {
    return rowsById(this.db, requestId);
  }

  /** The admin reads, off the event loop for a file (request-log-reader.ts). */
  read<T>(op: ReadOp, ...args: unknown[]): Promise<T> {
    this.reader ??= new RequestLogReader(this.db, this.location);
    return this.reader.run<T>(op, ...args);
  }

  meta(name: string): string | null {
    return (this.db.query("SELECT value FROM meta WHERE name = ?").get(name) as { value: string } | null)?.value ?? null;
  }

  setMeta(name: string, value: string): void {
    this.db.run("INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value", [name, value]);
  }

  pendingCount(): number {
    return this.pending.length;
  }

  close(): void {
    if (this.closed) return;
    if (this.timer !== null) clearTimeout(this.timer);
    if (this.checkpointLater !== null) clearTimeout(this.checkpointLater);
    clearInterval(this.pruneTimer);
    this.flushNow();
    this.closed = true;
    this.reader?.close();
    try {
      this.opened?.close();
    } catch {}
  }
}
