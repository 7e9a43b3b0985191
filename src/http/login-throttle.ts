// D5.9: 10 failed admin logins from one client IP within 10 minutes → 429 until the oldest leaves the window.
// Since issue 15 every admin credential check records its failures here, so any client can add an entry:
// the table is bounded (expired entries swept, then the oldest addresses dropped) so that guesses from
// very many addresses (an IPv6 range) cannot grow it without limit.
//
// Issue 33: the per-address lock alone either lets guessing from many addresses go on unchecked or, when every
// client shares one address (a proxy the gateway does not trust), lets anyone lock the admin out. So there is
// also a global failure budget: past GLOBAL_BUDGET failures in the window, from all addresses together, every
// admin key or password check waits before it is compared (GLOBAL_STEP_MS per failure over the budget, at most
// GLOBAL_MAX_DELAY_MS). It slows guessing; it never refuses, so the right key from an address that is not
// locked still signs in. Admin JWTs are not delayed (their signature cannot be guessed).
const WINDOW_MS = 10 * 60 * 1000;
const MAX_FAILURES = 10;
export const MAX_TRACKED_ADDRESSES = 10_000;
export const GLOBAL_BUDGET = 100;
export const GLOBAL_STEP_MS = 20;
export const GLOBAL_MAX_DELAY_MS = 2_000;
/** The global count is kept per minute: bounded memory however many addresses guess. */
const BUCKET_MS = 60 * 1000;

export class LoginThrottle {
  private failures = new Map<string, number[]>();
  private globalBuckets = new Map<number, number>();

  constructor(
    private now: () => number = Date.now,
    /** How a global-budget delay is waited out; injectable so tests need not wait. */
    private readonly sleep: (ms: number) => Promise<unknown> = (ms) => Bun.sleep(ms),
  ) {}

  /** Failures from all addresses within the window (whole minutes: it may count up to a minute more). */
  globalFailures(): number {
    const oldest = Math.floor((this.now() - WINDOW_MS) / BUCKET_MS);
    let total = 0;
    for (const [bucket, n] of this.globalBuckets) {
      if (bucket < oldest) this.globalBuckets.delete(bucket);
      else total += n;
    }
    return total;
  }

  /** The delay every admin key or password check waits now (0 within the budget). */
  globalDelayMs(): number {
    const over = this.globalFailures() - GLOBAL_BUDGET;
    return over > 0 ? Math.min(GLOBAL_MAX_DELAY_MS, over * GLOBAL_STEP_MS) : 0;
  }

  /** Waits out the global delay, if any, before a secret is compared. */
  async slowDown(): Promise<void> {
    const ms = this.globalDelayMs();
    if (ms > 0) await this.sleep(ms);
  }

  private recent(ip: string): number[] {
    const cutoff = this.now() - WINDOW_MS;
    const list = (this.failures.get(ip) ?? []).filter((t) => t > cutoff);
    if (list.length) this.failures.set(ip, list);
    else this.failures.delete(ip);
    return list;
  }

  /** Seconds to wait when blocked, else 0. */
  retryAfter(ip: string): number {
    const list = this.recent(ip);
    if (list.length < MAX_FAILURES) return 0;
    return Math.max(1, Math.ceil((list[0]! + WINDOW_MS - this.now()) / 1000));
  }

  fail(ip: string): void {
    const bucket = Math.floor(this.now() / BUCKET_MS);
    this.globalBuckets.set(bucket, (this.globalBuckets.get(bucket) ?? 0) + 1);
    const list = this.recent(ip);
    list.push(this.now());
    // Re-inserted so the map's order is least recently failed first.
    this.failures.delete(ip);
    this.failures.set(ip, list);
    if (this.failures.size > MAX_TRACKED_ADDRESSES) this.shrink();
  }

  succeed(ip: string): void {
    this.failures.delete(ip);
  }

  /** How many addresses have failures on record (tests, diagnostics). */
  trackedAddresses(): number {
    return this.failures.size;
  }

  private shrink(): void {
    const cutoff = this.now() - WINDOW_MS;
    for (const [ip, list] of this.failures) if (list[list.length - 1]! <= cutoff) this.failures.delete(ip);
    // Down to 90 %, so the sweep runs once per thousand new addresses rather than on every failure.
    const target = Math.floor(MAX_TRACKED_ADDRESSES * 0.9);
    for (const ip of this.failures.keys()) {
      if (this.failures.size <= target) break;
      this.failures.delete(ip);
    }
  }
}
