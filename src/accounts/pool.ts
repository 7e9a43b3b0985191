// The pool of managed accounts (D8.2–D8.8): least-recently-acquired rotation, per-account and global
// in-flight limits, one FIFO wait queue with hand-off. Invariant kept after every change: no waiter can
// use any free slot (dispatch ran), so a new arrival runs at once only on a slot no older waiter can use.
import { GatewayError } from "../util/gateway-error";
import { queueStatus, type AcquireOptions, type Lease, type Pool, type PoolLimits, type QueueStatus, type Waiter } from "./pool-api";

export type { AcquireOptions, Lease, Pool, PoolLimits, QueueStatus } from "./pool-api";

export interface PoolOptions {
  /** Account identifiers in config order; read on every decision so config changes apply at once. */
  accounts: () => string[];
  limits: () => PoolLimits;
  now?: () => number;
}

/** The in-process pool: the default backend (store.backend "memory"). */
export class AccountPool implements Pool {
  private inflight = new Map<string, number>();
  private total = 0;
  private stamps = new Map<string, number>();
  private stampCounter = 0;
  private cooldownUntil = new Map<string, number>();
  private heldOut = new Set<string>();
  private waiters: Waiter[] = [];
  private cooldownTimer?: ReturnType<typeof setTimeout>;
  private readonly now: () => number;

  constructor(private readonly opts: PoolOptions) {
    this.now = opts.now ?? Date.now;
  }

  inFlight(account: string): number {
    return this.inflight.get(account) ?? 0;
  }

  totalInFlight(): number {
    return this.total;
  }

  /** Takes a slot, waiting in the FIFO queue when none fits; throws the 429s of D8.6. */
  acquire(opts: AcquireOptions = {}): Promise<Lease> {
    const accounts = this.opts.accounts();
    // D8.6 (revised by issue 15): a gateway that is not set up is not rate limited → 503 with guidance.
    if (accounts.length === 0)
      return Promise.reject(
        new GatewayError(
          503,
          "no_accounts",
          "no managed accounts are configured: add accounts (admin API or config) or call with a core token (pass-through)",
          { retryAfter: 30 },
        ),
      );
    if (opts.pinned && !accounts.includes(opts.pinned))
      return Promise.reject(new GatewayError(400, "unknown_account", `Unknown account ${opts.pinned}.`));
    if (opts.signal?.aborted) return Promise.reject(opts.signal.reason ?? new Error("aborted"));
    const immediate = this.pick(opts);
    if (immediate) return Promise.resolve(this.grant(immediate));
    const limits = this.opts.limits();
    if (this.waiters.length >= limits.maxQueue) {
      const m = limits.maxQueue;
      return Promise.reject(
        new GatewayError(429, "queue_full", `${this.bindingLimit(opts)}; wait queue full (${m}/${m})`, { retryAfter: 5 }),
      );
    }
    return new Promise<Lease>((resolve, reject) => {
      const waiter: Waiter = { opts, resolve, reject, enqueuedAt: this.now() };
      waiter.timer = setTimeout(() => {
        this.removeWaiter(waiter);
        const waited = Math.round((this.now() - waiter.enqueuedAt) / 1000);
        reject(new GatewayError(429, "queue_timeout", `${this.bindingLimit(opts)}; waited ${waited} s in the queue`, { retryAfter: 5 }));
      }, limits.queueWaitMs);
      if (opts.signal) {
        // A client that disconnects while waiting leaves the queue at once (D8.5).
        waiter.onAbort = () => {
          this.removeWaiter(waiter);
          reject(opts.signal!.reason ?? new Error("aborted"));
        };
        opts.signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      this.waiters.push(waiter);
    });
  }

  accountCount(): number {
    return this.opts.accounts().length;
  }

  /**
   * Whether some account outside `exclude` could serve a request once a slot frees: configured, not held out,
   * not in login cooldown. When none can, waiting in the queue is pointless (issue 15).
   */
  hasCandidate(exclude: ReadonlySet<string>): boolean {
    return this.opts.accounts().some((a) => !exclude.has(a) && !this.heldOut.has(a) && !this.inCooldown(a));
  }

  /** Re-runs the hand-off after a change of accounts or limits (D8.7). */
  reconfigure(): void {
    this.dispatch();
  }

  setCooldown(account: string, ms: number): void {
    this.cooldownUntil.set(account, this.now() + ms);
    this.scheduleCooldownWake();
  }

  clearCooldown(account: string): void {
    if (this.cooldownUntil.delete(account)) this.dispatch();
  }

  inCooldown(account: string): boolean {
    const until = this.cooldownUntil.get(account);
    if (until === undefined) return false;
    if (until <= this.now()) {
      this.cooldownUntil.delete(account);
      return false;
    }
    return true;
  }

  cooldownEnd(account: string): number | null {
    return this.inCooldown(account) ? this.cooldownUntil.get(account)! : null;
  }

  /** Keeps an account out of new requests while delete_all runs on it (core-upstream §10.5). */
  holdOut(account: string, held: boolean): void {
    if (held) this.heldOut.add(account);
    else if (this.heldOut.delete(account)) this.dispatch();
  }

  status(): QueueStatus {
    return queueStatus({
      accounts: this.opts.accounts(),
      limits: this.opts.limits(),
      inUse: this.total,
      waiting: this.waiters.length,
      inFlight: (a) => this.inFlight(a),
      inCooldown: (a) => this.inCooldown(a),
    });
  }

  /** Rejects every waiter (graceful shutdown, D1.4). */
  rejectAllWaiters(err: unknown): void {
    for (const w of this.waiters.splice(0)) {
      this.detach(w);
      w.reject(err);
    }
  }

  private eligible(account: string, opts: AcquireOptions, limits: PoolLimits): boolean {
    if (this.inFlight(account) >= limits.accountMaxInflight) return false;
    if (this.heldOut.has(account)) return false;
    if (opts.exclude?.has(account)) return false;
    if (!opts.pinned && this.inCooldown(account)) return false;
    return true;
  }

  /** D8.3: least-recently-acquired eligible account; never-used accounts first, in config order. */
  private pick(opts: AcquireOptions): string | null {
    const limits = this.opts.limits();
    if (this.total >= limits.globalMaxInflight) return null;
    if (opts.pinned) return this.eligible(opts.pinned, opts, limits) ? opts.pinned : null;
    let best: string | null = null;
    let bestStamp = Infinity;
    for (const a of this.opts.accounts()) {
      if (!this.eligible(a, opts, limits)) continue;
      const s = this.stamps.get(a) ?? 0;
      if (s < bestStamp) {
        best = a;
        bestStamp = s;
      }
    }
    return best;
  }

  private grant(account: string): Lease {
    this.inflight.set(account, this.inFlight(account) + 1);
    this.total++;
    this.stamps.set(account, ++this.stampCounter);
    return new PoolLease(this, account);
  }

  /** A lease's slot comes back (PoolLease.release, once per lease). */
  returnSlot(account: string): void {
    const n = this.inFlight(account) - 1;
    if (n <= 0) this.inflight.delete(account);
    else this.inflight.set(account, n);
    this.total--;
    this.dispatch();
  }

  /** D8.5 hand-off: walk waiters oldest first and give each one that fits a free slot. */
  private dispatch(): void {
    for (let i = 0; i < this.waiters.length; ) {
      const w = this.waiters[i]!;
      const account = this.pick(w.opts);
      if (!account) {
        i++;
        continue;
      }
      this.waiters.splice(i, 1);
      this.detach(w);
      w.resolve(this.grant(account));
    }
  }

  private removeWaiter(w: Waiter): void {
    const i = this.waiters.indexOf(w);
    if (i >= 0) this.waiters.splice(i, 1);
    this.detach(w);
  }

  private detach(w: Waiter): void {
    if (w.timer) clearTimeout(w.timer);
    if (w.onAbort) w.opts.signal?.removeEventListener("abort", w.onAbort);
  }

  private scheduleCooldownWake(): void {
    if (this.cooldownTimer) clearTimeout(this.cooldownTimer);
    let next = Infinity;
    for (const until of this.cooldownUntil.values()) next = Math.min(next, until);
    if (next === Infinity) return;
    this.cooldownTimer = setTimeout(() => {
      this.cooldownTimer = undefined;
      this.dispatch();
      this.scheduleCooldownWake();
    }, Math.max(0, next - this.now()) + 5);
    // A cooldown timer must not keep the process alive.
    (this.cooldownTimer as { unref?: () => void }).unref?.();
  }

  private bindingLimit(opts: AcquireOptions): string {
    const limits = this.opts.limits();
    if (this.total >= limits.globalMaxInflight) return `global_max_inflight (${limits.globalMaxInflight}) reached`;
    if (opts.pinned) return `account ${opts.pinned} is at account_max_inflight (${limits.accountMaxInflight})`;
    return `every account is at account_max_inflight (${limits.accountMaxInflight})`;
  }
}

/** A lease as one object with a shared method, not a closure over the pool per request (issue 35: a stream keeps it). */
class PoolLease implements Lease {
  private released = false;

  constructor(
    private readonly pool: AccountPool,
    readonly account: string,
  ) {}

  release(): void {
    if (this.released) return;
    this.released = true;
    this.pool.returnSlot(this.account);
  }
}
