// The operating bundle on the context (issue 20): metrics, usage per key and quotas. Two hooks feed it — the
// admission of a business credential (business-auth.ts) and the end of every response (access-log.ts) — so
// no route or pipeline code knows about it.
import type { RequestState } from "./request-state";
import { GatewayMetrics, type AccountGauge, type PoolSnapshot } from "./metrics";
import { QuotaGate } from "./quota";
import { utcDay, type UsageStore } from "./usage-store";
import type { Config } from "../config/schema";
import type { RequestLog } from "./request-log";
import { KeyNames, rowOf } from "./request-record";
import { routeSurface } from "./route-surface";
import type { AuditTrail } from "./audit";
import { redactPath } from "../util/log";
import { requestLogSettings } from "./request-log-settings";

// The probes set no route template; their fixed paths are safe labels. Any other request without a template
// (an unknown path) is labelled "": a client must not be able to add series by inventing paths.
const PROBE_PATHS = new Set(["/healthz", "/readyz"]);
/** The usage row key of every pass-through request (callers' own core tokens have no fingerprint worth keeping). */
export const PASSTHROUGH_KEY = "passthrough";
// Not in the request log (issue 31): probes, scrapes and the console's files would drown the traffic.
const UNLOGGED_SURFACES = new Set(["health", "metrics", "console"]);

export class Ops {
  readonly metrics: GatewayMetrics;
  readonly quota: QuotaGate;
  /** Issue 31: one row per answered request; absent when `request_log.enabled` is false. */
  requestLog?: RequestLog;
  /** Issue 31: admin writes. Made on first use when `deferAudit` was given one to make (issue 35). */
  get audit(): AuditTrail | undefined {
    if (!this.auditTrail && this.makeAudit) {
      try {
        this.auditTrail = this.makeAudit();
        this.makeAudit = undefined;
      } catch {
        // The request log's file is locked by another process at its first open: tried again on the next use.
      }
    }
    return this.auditTrail;
  }
  set audit(a: AuditTrail | undefined) {
    this.auditTrail = a;
    this.makeAudit = undefined;
  }
  private auditTrail?: AuditTrail;
  private makeAudit?: () => AuditTrail;
  /** The name rows carry in `instance` (the Redis instance id when shared, else host:pid). */
  instance = "";
  private readonly keyNames = new KeyNames();
  /** `request_log.enabled` of the config last seen (configs are frozen and replaced on every change). */
  private logSeen?: { config: Config; on: boolean };

  constructor(
    readonly usage: UsageStore,
    private readonly opts: { version: string; config: () => Config; pool: () => PoolSnapshot; now: () => number; accounts?: () => AccountGauge[] },
  ) {
    this.metrics = new GatewayMetrics({ version: opts.version, pool: opts.pool, accounts: opts.accounts, requestLog: () => this.requestLog?.counters });
    this.quota = new QuotaGate({ config: opts.config, usage, now: opts.now });
  }

  /**
   * A configured key passes its quotas (or throws 429 key_quota_exceeded); pass-through tokens have none.
   * The caller records the admitted key on the request's state (`admittedKey`), read back by requestEnded.
   */
  admit(token: string, fingerprint: string): void {
    this.quota.admit(token, fingerprint);
  }

  requestEnded(state: RequestState, status: number, request?: { method: string; headers: Headers }): void {
    const keyFp = state.admittedKey;
    const model = state.resolvedModel ?? "";
    const end = performance.now();
    const method = request?.method ?? "GET";
    const surface = routeSurface(method, state.route, state.path);
    const tl = state.timeline;
    this.metrics.request({
      surface,
      route: state.route ?? (PROBE_PATHS.has(state.path) ? state.path : ""),
      status,
      model,
      key: keyFp ?? (state.mode === "passthrough" ? "passthrough" : ""),
      durationMs: end - state.start,
      ttfbMs: state.ttfbMs,
      inputTokens: state.inputTokens,
      outputTokens: state.outputTokens,
      stream: state.stream ?? false,
      aborted: state.aborted ?? false,
      errorCode: state.errorCode ?? "",
      ttftMs: tl?.firstToken,
    });
    // The surface first: `audit` is made on first use (it opens the request log's database), by an admin request.
    if (surface === "admin" && request && this.audit) this.audit.requestEnded(state, status, request, surface, redactPath(state.path, state.search));
    if (this.requestLog && this.recording() && method !== "OPTIONS" && !UNLOGGED_SURFACES.has(surface) && !(surface === "admin" && method === "GET" && status < 400)) {
      const now = this.opts.now();
      const keyName = state.configuredKey ? this.keyNames.nameOf(this.opts.config(), state.configuredKey) : "";
      this.requestLog.addRow(rowOf(state, status, request, { instance: this.instance, now, keyName, surface }));
    }
    // Pass-through traffic (callers' own core tokens) is counted too, all under one `passthrough` key (issue 33):
    // leaving it out made /admin/usage disagree with the traffic. The tokens themselves are never recorded.
    const usageKey = keyFp ?? (state.mode === "passthrough" ? PASSTHROUGH_KEY : undefined);
    if (usageKey) this.usage.add(utcDay(this.opts.now()), usageKey, model, state.inputTokens ?? 0, state.outputTokens ?? 0);
  }

  /**
   * Whether rows are recorded now: a log opened at start follows `request_log.enabled` live (a SIGHUP reload or a config
   * import pauses and resumes it); a gateway started with it off opens no file, and turning it on takes a restart.
   */
  private recording(): boolean {
    const config = this.opts.config();
    if (this.logSeen?.config !== config) this.logSeen = { config, on: requestLogSettings(config).enabled };
    return this.logSeen.on;
  }

  /** The audit trail, made when first needed (it opens the request log's database, which a start defers). */
  deferAudit(make: () => AuditTrail): void {
    this.auditTrail = undefined;
    this.makeAudit = make;
  }

  /** Stops what was started beside the request log (the Redis replication). */
  onClose?: () => void;

  close(): Promise<void> {
    this.onClose?.();
    this.requestLog?.close();
    return this.usage.close();
  }
}
