// The operating bundle on the context (issue 20): metrics, usage per key and quotas. Two hooks feed it — the
// admission of a business credential (business-auth.ts) and the end of every response (access-log.ts) — so
// no route or pipeline code knows about it.
import type { RequestState } from "../http/request-state";
import { GatewayMetrics, type PoolSnapshot } from "./metrics";
import { QuotaGate } from "./quota";
import { utcDay, type UsageStore } from "./usage-store";
import type { Config } from "../config/schema";

// The probes set no route template; their fixed paths are safe labels. Any other request without a template
// (an unknown path) is labelled "": a client must not be able to add series by inventing paths.
const PROBE_PATHS = new Set(["/healthz", "/readyz"]);
/** The usage row key of every pass-through request (callers' own core tokens have no fingerprint worth keeping). */
export const PASSTHROUGH_KEY = "passthrough";

export class Ops {
  readonly metrics: GatewayMetrics;
  readonly quota: QuotaGate;

  constructor(
    readonly usage: UsageStore,
    private readonly opts: { version: string; config: () => Config; pool: () => PoolSnapshot; now: () => number },
  ) {
    this.metrics = new GatewayMetrics({ version: opts.version, pool: opts.pool });
    this.quota = new QuotaGate({ config: opts.config, usage, now: opts.now });
  }

  /**
   * A configured key passes its quotas (or throws 429 key_quota_exceeded); pass-through tokens have none.
   * The caller records the admitted key on the request's state (`admittedKey`), read back by requestEnded.
   */
  admit(token: string, fingerprint: string): void {
    this.quota.admit(token, fingerprint);
  }

  requestEnded(state: RequestState, status: number): void {
    const keyFp = state.admittedKey;
    const model = state.resolvedModel ?? "";
    const end = performance.now();
    this.metrics.request({
      surface: state.surface,
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
    });
    // Pass-through traffic (callers' own core tokens) is counted too, all under one `passthrough` key (issue 33):
    // leaving it out made /admin/usage disagree with the traffic. The tokens themselves are never recorded.
    const usageKey = keyFp ?? (state.mode === "passthrough" ? PASSTHROUGH_KEY : undefined);
    if (usageKey) this.usage.add(utcDay(this.opts.now()), usageKey, model, state.inputTokens ?? 0, state.outputTokens ?? 0);
  }

  close(): Promise<void> {
    return this.usage.close();
  }
}
