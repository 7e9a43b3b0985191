// D5.9: 10 failed admin logins from one client IP within 10 minutes → 429 until the oldest leaves the window.
// Since issue 15 every admin credential check records its failures here, so any client can add an entry:
// the table is bounded (expired entries swept, then the oldest addresses dropped) so that guesses from
// very many addresses (an IPv6 range) cannot grow it without limit.
const WINDOW_MS = 10 * 60 * 1000;
const MAX_FAILURES = 10;
export const MAX_TRACKED_ADDRESSES = 10_000;

export class LoginThrottle {
  private failures = new Map<string, number[]>();

  constructor(private now: () => number = Date.now) {}

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
