// Pacing, to protect accounts (issue 32): at least `min_interval_ms` (+ up to 25 % jitter) between two
// completion starts on one account, and at most `daily_completions` starts per account per UTC day. The
// account's own values win over runtime.account_min_interval_ms / account_daily_completions; both are read on
// every start, so a change applies at once. Per instance: several instances pace each account separately.
import type { Config } from "../config/schema";
import { findAccount } from "../config/identity";
import { CoreError, withOrigin } from "../core/errors";
import { abortableSleep } from "../util/abortable-sleep";

export interface Pacing {
  minIntervalMs: number;
  dailyCompletions: number;
}

export function pacingOf(config: Config, account: string): Pacing {
  const r = config.runtime ?? {};
  const acc = config.accounts ? findAccount(config.accounts, account) : undefined;
  return {
    minIntervalMs: acc?.min_interval_ms ?? r.account_min_interval_ms ?? 0,
    dailyCompletions: acc?.daily_completions ?? r.account_daily_completions ?? 0,
  };
}

/** Milliseconds until the next UTC midnight: when daily counts start again. */
export function msUntilUtcMidnight(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1) - now;
}

export class Pacer {
  /** The earliest start of each account's next completion (reserved in order of arrival). */
  private nextStart = new Map<string, number>();
  private counts = new Map<string, { day: number; n: number }>();

  constructor(
    private readonly opts: { config: () => Config; now?: () => number; random?: () => number },
  ) {}

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  /** Completions started on the account today (UTC). */
  startedToday(account: string): number {
    const c = this.counts.get(account);
    return c && c.day === utcDay(this.now()) ? c.n : 0;
  }

  /**
   * The account's pacing, null when it has none (no interval, no daily cap: the default): then its completions
   * neither wait nor are counted, and a request skips the pacer altogether (issue 35, CPU per request).
   */
  pacingFor(account: string): Pacing | null {
    const p = pacingOf(this.opts.config(), account);
    return p.minIntervalMs > 0 || p.dailyCompletions > 0 ? p : null;
  }

  /** Throws the daily-cap error when the account has no completion left today (checked before its session). */
  assertUnderCap(account: string, pacing: Pacing = pacingOf(this.opts.config(), account)): void {
    const cap = pacing.dailyCompletions;
    if (cap > 0 && this.startedToday(account) >= cap) throw capError(cap);
  }

  /**
   * Waits until the account may start a completion and counts the start; throws a CoreError of origin "pacing"
   * (the runner moves to another account) when its daily cap is reached. Starts are reserved in call order,
   * so two requests waiting on one account keep the interval between them too.
   */
  async beforeCompletion(account: string, signal?: AbortSignal): Promise<void> {
    const p = pacingOf(this.opts.config(), account);
    const now = this.now();
    if (p.dailyCompletions > 0) {
      const day = utcDay(now);
      const c = this.counts.get(account);
      const n = c && c.day === day ? c.n : 0;
      if (n >= p.dailyCompletions) throw capError(p.dailyCompletions);
      this.counts.set(account, { day, n: n + 1 });
    }
    if (p.minIntervalMs <= 0) return;
    const at = Math.max(now, this.nextStart.get(account) ?? 0);
    const jitter = p.minIntervalMs * 0.25 * (this.opts.random ?? Math.random)();
    this.nextStart.set(account, at + p.minIntervalMs + jitter);
    if (at > now) await abortableSleep(at - now, signal);
  }
}

const utcDay = (ms: number) => Math.floor(ms / 86_400_000);

const capError = (cap: number) => withOrigin(new CoreError("upstream_rate_limited", `daily completion cap of ${cap} reached for this account (resets at 00:00 UTC)`), "pacing");

