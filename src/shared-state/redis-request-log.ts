// The request log with `store.backend: redis` (issue 31): every instance keeps its own bun:sqlite file and also
// appends each batch it writes to one capped Redis stream; every instance reads that stream into its own file.
// So any instance answers GET /admin/requests for all of them from local SQL (filters, cursors and the traffic
// figures need no Redis query language), and an instance that was down catches up from where it stopped (the
// last stream id it read is kept in the file). The stream is capped (MAXLEN ~): an instance down for longer
// than the stream holds misses the oldest rows of the others; its own rows are never lost.
// A Redis outage never fails a request: the batch stays in the local file, and the failure is logged.
import type { Logger } from "../util/log";
import type { RequestLog } from "../metering/request-log";
import type { RequestRecord } from "../metering/request-record";
import type { SharedRedis } from "./redis";
import type { AuditEntry, AuditTrail } from "../metering/audit";

const STREAM = "reqlog:stream";
const MAX_ENTRIES = 20_000;
const POLL_MS = 2000;
const READ_COUNT = 200;

export class RedisRequestLogReplica {
  private timer: ReturnType<typeof setInterval> | null = null;
  private pulling: Promise<void> | null = null;
  private lastWarn = 0;

  constructor(
    private readonly log: RequestLog,
    private readonly redis: SharedRedis,
    private readonly logger: Logger,
    /** The audit log shares the stream (entries with an `audit` field): any instance lists every admin write. */
    private readonly audit?: AuditTrail,
  ) {}

  start(): void {
    this.log.onWritten = (rows) => this.publish(rows);
    if (this.audit) this.audit.onWritten = (entry) => this.publishAudit(entry);
    this.log.beforeRead = () => this.pull();
    this.timer = setInterval(() => void this.pull(), POLL_MS);
    this.timer.unref?.();
    void this.pull();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private publish(rows: RequestRecord[]): void {
    // One stream entry per batch: a busy instance adds a few entries a second, not one per request.
    this.redis
      .send("XADD", [this.redis.key(STREAM), "MAXLEN", "~", String(MAX_ENTRIES), "*", "origin", this.redis.instanceId, "rows", JSON.stringify(rows)])
      .catch((e) => this.warn("request log not shared with the other instances", e));
  }

  private publishAudit(entry: AuditEntry): void {
    this.redis
      .send("XADD", [this.redis.key(STREAM), "MAXLEN", "~", String(MAX_ENTRIES), "*", "origin", this.redis.instanceId, "audit", JSON.stringify(entry)])
      .catch((e) => this.warn("audit entry not shared with the other instances", e));
  }

  /** Reads what the other instances added since the last read into the local file. Concurrent calls share one read. */
  pull(): Promise<void> {
    this.pulling ??= this.read().finally(() => {
      this.pulling = null;
    });
    return this.pulling;
  }

  private async read(): Promise<void> {
    try {
      for (;;) {
        const from = this.log.meta("redis_stream_id");
        const start = from ? `(${from}` : "-";
        const entries = (await this.redis.send("XRANGE", [this.redis.key(STREAM), start, "+", "COUNT", String(READ_COUNT)])) as [string, string[]][] | null;
        if (!entries || entries.length === 0) return;
        const rows: RequestRecord[] = [];
        const audits: AuditEntry[] = [];
        for (const [, fields] of entries) {
          const f = new Map<string, string>();
          for (let i = 0; i + 1 < fields.length; i += 2) f.set(fields[i]!, fields[i + 1]!);
          if (f.get("origin") === this.redis.instanceId) continue;
          try {
            if (f.has("audit")) audits.push(JSON.parse(f.get("audit")!) as AuditEntry);
            else rows.push(...(JSON.parse(f.get("rows") ?? "[]") as RequestRecord[]));
          } catch {}
        }
        // Rows and position together: a crash between them can neither lose nor repeat a batch.
        this.log.insertReplicated(rows, { name: "redis_stream_id", value: entries[entries.length - 1]![0] }, () => this.audit?.insertReplicated(audits));
        if (entries.length < READ_COUNT) return;
      }
    } catch (e) {
      this.warn("request log of the other instances not read", e);
    }
  }

  private warn(msg: string, e: unknown): void {
    const now = Date.now();
    if (now - this.lastWarn < 60_000) return;
    this.lastWarn = now;
    this.logger.warn(msg, { error: String((e as Error)?.message ?? e) });
  }
}
