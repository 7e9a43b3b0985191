// The pool of managed accounts shared by every instance through Redis (issue 21). Decisions (acquire, release,
// hand-off) run atomically in one Lua script (pool-script.ts) with the memory pool's rules; this class keeps
// the waiters of this process, the leases it holds (renewed while held, so a dead instance's slots free
// within the lease TTL) and a snapshot of the shared state for the synchronous questions (status, cooldown).
import { GatewayError } from "../util/gateway-error";
import type { Logger } from "../util/log";
import { queueStatus, type AcquireOptions, type Lease, type Pool, type PoolLimits, type QueueStatus, type Waiter } from "../accounts/pool-api";
import { POOL_SCRIPT } from "./pool-script";
import { StoreUnavailableError, type SharedRedis } from "./redis";

/**
 * How often an instance renews its leases, re-runs the hand-off and refreshes its view (cooldown ends,
 * expired leases, lost messages). Also bounds how long a restarted Redis may miss a running stream's lease.
 */
export const TICK_MS = 200;

const KEY_NAMES = ["leases", "lease_acct", "stamps", "stampseq", "cooldown", "heldout", "queue", "tickets", "qseq", "instances"];

export interface RedisPoolOptions {
  redis: SharedRedis;
  accounts: () => string[];
  limits: () => PoolLimits;
  leaseTtlMs: number;
  log: Logger;
}

/** A waiter of the shared pool also holds its ticket in the Redis queue. */
interface TicketWaiter extends Waiter {
  ticket: string;
}

interface Snapshot {
  total: number;
  inflight: Map<string, number>;
  /** Cooldown end in this process's clock (Redis sends what is left, so clocks need not agree). */
  cooldownUntil: Map<string, number>;
  heldOut: Set<string>;
  waiting: number;
}

type ScriptReply = [unknown[], string, string[], string[], string[], string];

export class RedisPool implements Pool {
  private readonly keys: string[];
  private readonly waiters = new Map<string, TicketWaiter>();
  /** Lease id → account, for every lease this process holds. */
  private readonly held = new Map<string, string>();
  private snap: Snapshot = { total: 0, inflight: new Map(), cooldownUntil: new Map(), heldOut: new Set(), waiting: 0 };
  private ticketSeq = 0;
  private tickTimer?: ReturnType<typeof setInterval>;
  private down = false;
  private ticking = false;

  constructor(private readonly opts: RedisPoolOptions) {
    this.keys = KEY_NAMES.map((k) => opts.redis.key(`pool:${k}`));
  }

  /** Subscribes to this instance's grants and starts the tick and lease renewal. */
  async start(): Promise<void> {
    await this.opts.redis.subscribe(`pool:grant:${this.opts.redis.instanceId}`, (m) => this.onGrant(m));
    this.opts.redis.onReconnect(() => {
      // A restarted Redis forgot the queue: this instance's waiters would wait for grants that never come.
      // They were waiting through an outage anyway; they get the outage's 503 and their clients retry.
      this.rejectAllWaiters(new StoreUnavailableError("reconnected: queue state may be lost"));
      void this.tick();
    });
    await this.tick();
    this.tickTimer = setInterval(() => void this.tick(), TICK_MS);
    (this.tickTimer as { unref?: () => void }).unref?.();
  }

  async close(): Promise<void> {
    clearInterval(this.tickTimer);
  }

  async acquire(opts: AcquireOptions = {}): Promise<Lease> {
    const accounts = this.opts.accounts();
    if (accounts.length === 0)
      throw new GatewayError(503, "no_accounts", "no managed accounts are configured: add accounts (admin API or config) or call with a core token (pass-through)", { retryAfter: 30 });
    if (opts.pinned && !accounts.includes(opts.pinned)) throw new GatewayError(400, "unknown_account", `Unknown account ${opts.pinned}.`);
    if (opts.signal?.aborted) throw opts.signal.reason ?? new Error("aborted");
    const ticket = `${this.opts.redis.instanceId}:${++this.ticketSeq}`;
    const limits = this.opts.limits();
    // Registered before the script runs: the grant message may arrive before the script's own answer.
    return new Promise<Lease>((resolve, reject) => {
      const waiter: TicketWaiter = { ticket, opts, resolve, reject, enqueuedAt: Date.now() };
      this.waiters.set(ticket, waiter);
      this.run("acquire", [ticket, opts.pinned ?? "", [...(opts.exclude ?? [])].join("\n")]).then(
        (reply) => {
          const [result] = reply;
          if (!this.waiters.has(ticket)) return;
          if (result[0] === "ok") return this.settle(ticket, String(result[1]));
          if (result[0] === "full") {
            this.forget(waiter);
            const m = limits.maxQueue;
            return reject(new GatewayError(429, "queue_full", `${this.bindingLimit(opts)}; wait queue full (${m}/${m})`, { retryAfter: 5 }));
          }
          waiter.timer = setTimeout(() => {
            this.giveUp(waiter);
            const waited = Math.round((Date.now() - waiter.enqueuedAt) / 1000);
            reject(new GatewayError(429, "queue_timeout", `${this.bindingLimit(opts)}; waited ${waited} s in the queue`, { retryAfter: 5 }));
          }, limits.queueWaitMs);
          if (opts.signal?.aborted) {
            this.giveUp(waiter);
            return reject(opts.signal.reason ?? new Error("aborted"));
          }
          if (opts.signal) {
            // A client that disconnects while waiting leaves the queue at once (D8.5).
            waiter.onAbort = () => {
              this.giveUp(waiter);
              reject(opts.signal!.reason ?? new Error("aborted"));
            };
            opts.signal.addEventListener("abort", waiter.onAbort, { once: true });
          }
        },
        (e) => {
          this.forget(waiter);
          reject(e);
        },
      );
    });
  }

  /** False from the first failed tick until one succeeds again. */
  storeHealthy(): boolean {
    return !this.down;
  }

  accountCount(): number {
    return this.opts.accounts().length;
  }

  hasCandidate(exclude: ReadonlySet<string>): boolean {
    return this.opts.accounts().some((a) => !exclude.has(a) && !this.snap.heldOut.has(a) && !this.inCooldown(a));
  }

  reconfigure(): void {
    void this.tick();
  }

  setCooldown(account: string, ms: number): void {
    this.snap.cooldownUntil.set(account, Date.now() + ms);
    this.fire("cooldown", [account, String(ms)]);
  }

  clearCooldown(account: string): void {
    if (!this.snap.cooldownUntil.delete(account)) return;
    this.fire("cooldown", [account, "0"]);
  }

  inCooldown(account: string): boolean {
    return (this.snap.cooldownUntil.get(account) ?? 0) > Date.now();
  }

  cooldownEnd(account: string): number | null {
    return this.inCooldown(account) ? this.snap.cooldownUntil.get(account)! : null;
  }

  holdOut(account: string, held: boolean): void {
    if (held) this.snap.heldOut.add(account);
    else this.snap.heldOut.delete(account);
    this.fire("hold", [account, held ? "1" : "0"]);
  }

  inFlight(account: string): number {
    return this.snap.inflight.get(account) ?? 0;
  }

  totalInFlight(): number {
    return this.held.size;
  }

  status(): QueueStatus {
    const status = queueStatus({
      accounts: this.opts.accounts(),
      limits: this.opts.limits(),
      inUse: this.snap.total,
      waiting: this.snap.waiting,
      inFlight: (a) => this.inFlight(a),
      inCooldown: (a) => this.inCooldown(a),
    });
    return { ...status, instance: { id: this.opts.redis.instanceId, in_use: this.held.size, waiting: this.waiters.size } };
  }

  rejectAllWaiters(err: unknown): void {
    for (const w of [...this.waiters.values()]) {
      this.giveUp(w);
      w.reject(err);
    }
  }

  /** Runs one operation of the script with the current accounts and limits; refreshes the snapshot. */
  private async run(op: string, args: string[]): Promise<ScriptReply> {
    const limits = this.opts.limits();
    const argv = [op, this.opts.redis.instanceId, this.opts.accounts().join("\n"), limits.accountMaxInflight, limits.globalMaxInflight, this.opts.leaseTtlMs, limits.maxQueue, this.opts.redis.key("pool:grant:"), ...args];
    const reply = (await this.opts.redis.eval(POOL_SCRIPT, this.keys, argv)) as ScriptReply;
    this.absorb(reply);
    return reply;
  }

  private absorb(reply: ScriptReply): void {
    const [, total, inflight, cooldown, held, waiting] = reply;
    const now = Date.now();
    const inf = new Map<string, number>();
    for (let i = 0; i + 1 < inflight.length; i += 2) inf.set(inflight[i]!, Number(inflight[i + 1]));
    const cd = new Map<string, number>();
    for (let i = 0; i + 1 < cooldown.length; i += 2) cd.set(cooldown[i]!, now + Number(cooldown[i + 1]));
    this.snap = { total: Number(total), inflight: inf, cooldownUntil: cd, heldOut: new Set(held), waiting: Number(waiting) };
  }

  /** A state change whose caller cannot wait (the Pool API is synchronous there): errors are logged. */
  private fire(op: string, args: string[]): void {
    this.run(op, args).catch((e) => this.opts.log.warn("shared pool update failed", { op, error: String((e as Error)?.message ?? e) }));
  }

  private onGrant(message: string): void {
    const [ticket, account] = message.split("\n");
    if (!ticket || !account) return;
    if (this.waiters.has(ticket)) return this.settle(ticket, account);
    // Already ours (the script's own answer came first), or a slot that reached a waiter that gave up
    // while Redis could not be told: give it back.
    if (!this.held.has(ticket)) void this.run("release", [ticket]).catch(() => {});
  }

  private settle(ticket: string, account: string): void {
    const w = this.waiters.get(ticket);
    if (!w) return;
    this.forget(w);
    this.held.set(ticket, account);
    let released = false;
    w.resolve({
      account,
      release: () => {
        if (released) return;
        released = true;
        this.held.delete(ticket);
        // When Redis cannot be told, the lease expires by its TTL (it is no longer renewed).
        this.fire("release", [ticket]);
      },
    });
  }

  private forget(w: TicketWaiter): void {
    this.waiters.delete(w.ticket);
    if (w.timer) clearTimeout(w.timer);
    if (w.onAbort) w.opts.signal?.removeEventListener("abort", w.onAbort);
  }

  /** Leaves the queue; a slot granted meanwhile goes back to the pool. */
  private giveUp(w: TicketWaiter): void {
    this.forget(w);
    void this.run("cancel", [w.ticket]).catch(() => {});
  }

  private async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      const leases = [...this.held].map(([id, a]) => `${id}\t${a}`);
      const waiting = [...this.waiters.values()].map((w) => JSON.stringify({ t: w.ticket, p: w.opts.pinned ?? "", x: [...(w.opts.exclude ?? [])] }));
      const [result] = await this.run("tick", [...leases, ...waiting]);
      const granted = (result[1] ?? []) as string[];
      for (let i = 0; i + 1 < granted.length; i += 2) this.settle(granted[i]!, granted[i + 1]!);
      if (this.down) this.opts.log.info("shared state store is back");
      this.down = false;
    } catch (e) {
      if (!this.down) this.opts.log.error("shared state store unavailable", { error: String((e as Error)?.message ?? e) });
      this.down = true;
      // Waiting is pointless while no instance can hand out slots: fail fast (503) instead of hanging.
      if (e instanceof StoreUnavailableError) this.rejectAllWaiters(e);
    } finally {
      this.ticking = false;
    }
  }

  private bindingLimit(opts: AcquireOptions): string {
    const limits = this.opts.limits();
    if (this.snap.total >= limits.globalMaxInflight) return `global_max_inflight (${limits.globalMaxInflight}) reached`;
    if (opts.pinned) return `account ${opts.pinned} is at account_max_inflight (${limits.accountMaxInflight})`;
    return `every account is at account_max_inflight (${limits.accountMaxInflight})`;
  }
}
