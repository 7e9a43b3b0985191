// What the turn runner, the account manager and the admin routes need from the pool of managed accounts,
// whichever backend holds it: one process (pool.ts, the default) or Redis shared by several instances
// (redis-pool.ts, issue 21). Semantics are the memory pool's (D8.2–D8.8); see that file.

export interface PoolLimits {
  accountMaxInflight: number;
  globalMaxInflight: number;
  maxQueue: number;
  queueWaitMs: number;
}

export interface AcquireOptions {
  /** X-Svc-Target-Account or file affinity: only this account (ignores cooldown, D5.3). */
  pinned?: string;
  /** Accounts this request already tried (D8.2). */
  exclude?: ReadonlySet<string>;
  signal?: AbortSignal;
}

export interface Lease {
  readonly account: string;
  /** Idempotent: a lease is released exactly once whatever path calls it (D8.8). */
  release(): void;
}

/** A caller waiting for a lease in either pool: its settlement, its wait timer and abort hook, when it came. */
export interface Waiter {
  opts: AcquireOptions;
  resolve(lease: Lease): void;
  reject(err: unknown): void;
  timer?: ReturnType<typeof setTimeout>;
  onAbort?: () => void;
  enqueuedAt: number;
}

export interface QueueStatus {
  available: number;
  in_use: number;
  total: number;
  available_accounts: string[];
  in_use_accounts: string[];
  max_inflight_per_account: number;
  global_max_inflight: number;
  recommended_concurrency: number;
  waiting: number;
  max_queue_size: number;
  queue_wait_seconds: number;
  cooldown_accounts: string[];
  /** With a shared backend: the figures above are global, these are this instance's own. */
  instance?: { id: string; in_use: number; waiting: number };
}

/** The figures of D8.15 from one view of the pool; both backends report through it, so their shapes agree. */
export function queueStatus(view: {
  accounts: string[];
  limits: PoolLimits;
  inUse: number;
  waiting: number;
  inFlight(account: string): number;
  inCooldown(account: string): boolean;
}): QueueStatus {
  const { accounts, limits } = view;
  const globalFull = view.inUse >= limits.globalMaxInflight;
  // An account cooling down takes no new request: it is listed there, not also as available (issue 31).
  const free = accounts.filter((a) => view.inFlight(a) < limits.accountMaxInflight && !view.inCooldown(a));
  return {
    available: globalFull ? 0 : free.length,
    in_use: view.inUse,
    total: accounts.length,
    available_accounts: globalFull ? [] : free,
    in_use_accounts: accounts.filter((a) => view.inFlight(a) > 0),
    max_inflight_per_account: limits.accountMaxInflight,
    global_max_inflight: limits.globalMaxInflight,
    recommended_concurrency: accounts.length * limits.accountMaxInflight,
    waiting: view.waiting,
    max_queue_size: limits.maxQueue,
    queue_wait_seconds: Math.round(limits.queueWaitMs / 1000),
    cooldown_accounts: accounts.filter((a) => view.inCooldown(a)),
  };
}

export interface Pool {
  /** Takes a slot, waiting in the FIFO queue when none fits; throws the 429s of D8.6 (503 when the shared store is down). */
  acquire(opts?: AcquireOptions): Promise<Lease>;
  /** Whether some account outside `exclude` could serve a request once a slot frees. */
  hasCandidate(exclude: ReadonlySet<string>): boolean;
  /** How many managed accounts are configured: status().total without building the status (asked per request). */
  accountCount(): number;
  /** Re-runs the hand-off after a change of accounts or limits (D8.7). */
  reconfigure(): void;
  setCooldown(account: string, ms: number): void;
  clearCooldown(account: string): void;
  inCooldown(account: string): boolean;
  cooldownEnd(account: string): number | null;
  /** Keeps an account out of new requests while delete_all runs on it. */
  holdOut(account: string, held: boolean): void;
  /** Leases on `account` (all instances with a shared backend). */
  inFlight(account: string): number;
  /** Leases held by this process (idle detection). */
  totalInFlight(): number;
  status(): QueueStatus;
  /** Rejects every waiter of this process (graceful shutdown, D1.4). */
  rejectAllWaiters(err: unknown): void;
  /** Stops background work (shared backends); leases still held are left to their TTL. */
  close?(): Promise<void>;
}
