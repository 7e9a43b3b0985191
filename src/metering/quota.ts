// Per-key quotas (issue 20): requests per minute in fixed UTC-minute windows, tokens per UTC day. Read from the
// live config on every check, so a change through the admin API applies to the next request.
// Tokens are known only when a request ends, so a key may overshoot its daily budget by what its requests in
// flight use; the next request after that is refused.
import type { ApiKeyRecord, Config } from "../config/schema";
import { GatewayError } from "../util/gateway-error";
import type { UsageStore } from "./usage-store";
import { utcDay } from "./usage-store";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export class QuotaGate {
  private windows = new Map<string, { minute: number; count: number }>();
  private indexed: { config: Config; byKey: Map<string, ApiKeyRecord> } | null = null;

  constructor(
    private readonly opts: {
      config: () => Config;
      usage: UsageStore;
      now: () => number;
    },
  ) {}

  /** Throws 429 key_quota_exceeded, with Retry-After to the start of the next window, when a quota is used up. */
  admit(key: string, fingerprint: string): void {
    const quota = this.record(key)?.quota;
    if (!quota) return;
    const now = this.opts.now();
    const tpd = quota.tokens_per_day;
    if (tpd && this.opts.usage.tokensOn(fingerprint, utcDay(now)) >= tpd) {
      const nextDay = (Math.floor(now / DAY_MS) + 1) * DAY_MS;
      throw exceeded(`tokens per day (${tpd})`, nextDay - now);
    }
    const rpm = quota.requests_per_minute;
    if (!rpm) return;
    const minute = Math.floor(now / MINUTE_MS);
    let w = this.windows.get(fingerprint);
    if (!w || w.minute !== minute) {
      w = { minute, count: 0 };
      this.windows.set(fingerprint, w);
      this.prune(minute);
    }
    if (w.count >= rpm) throw exceeded(`requests per minute (${rpm})`, (minute + 1) * MINUTE_MS - now);
    w.count += 1;
  }

  private record(key: string): ApiKeyRecord | undefined {
    const config = this.opts.config();
    // The config object is replaced (and frozen) on every change: rebuild the index only then.
    if (this.indexed?.config !== config) this.indexed = { config, byKey: new Map((config.api_keys ?? []).map((r) => [r.key, r])) };
    return this.indexed.byKey.get(key);
  }

  // Windows of keys idle since an earlier minute are dead weight; drop them when a new window opens.
  private prune(minute: number): void {
    if (this.windows.size < 1024) return;
    for (const [k, w] of this.windows) if (w.minute !== minute) this.windows.delete(k);
  }
}

function exceeded(which: string, waitMs: number): GatewayError {
  return new GatewayError(429, "key_quota_exceeded", `This API key has used its quota of ${which}; retry after the window resets.`, {
    retryAfter: Math.max(1, Math.ceil(waitMs / 1000)),
  });
}
