// D5.9: 10 failed admin logins from one client IP within 10 minutes → 429 until the oldest leaves the window.
const WINDOW_MS = 10 * 60 * 1000;
const MAX_FAILURES = 10;

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
    this.failures.set(ip, list);
  }

  succeed(ip: string): void {
    this.failures.delete(ip);
  }
}
