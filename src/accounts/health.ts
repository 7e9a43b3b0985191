// Account health (issue 32): one state machine per account — healthy → cooling_down{class, until} → probing →
// healthy, or disabled_pending_operator — driven by classified failures (health-classes.ts), with per-class
// exponential backoff and jitter, an automatic probe when a cooldown ends (a login or a cheap authenticated
// call, never a completion), and the last 100 events per account. The pool's cooldown is what keeps an account
// out of rotation; this file decides when and for how long, and is the only caller of setCooldown.
import type { Logger } from "../util/log";
import type { Pool } from "./pool-api";
import { msUntilUtcMidnight } from "./pacer";
import { backoffMs, classifyFailure, DEFAULT_POLICY, maskIdentifier, type ClassPolicy, type FailureClass } from "./health-classes";

export type HealthState = "healthy" | "cooling_down" | "probing" | "disabled_pending_operator";
export type HealthEventKind = "failure" | "cooldown" | "probe" | "recovered" | "disabled" | "operator";

export interface HealthEvent {
  at: string;
  kind: HealthEventKind;
  class: FailureClass | null;
  detail: string;
  request_id: string | null;
}

export interface HealthRecord {
  state: HealthState;
  /** The class that put the account where it is (null when healthy). */
  class: FailureClass | null;
  since: number;
  /** End of the cooldown (cooling_down), null otherwise. */
  until: number | null;
  /** Cooldowns in a row without a success between: the backoff exponent and the disable count. */
  streak: number;
  /** Consecutive failures per class since the last success. */
  consecutive: Partial<Record<FailureClass, number>>;
  last_success_at: number | null;
  last_failure_at: number | null;
  events: HealthEvent[];
}

export const HEALTH_EVENTS_KEPT = 100;
/** Long enough to mean "until the operator acts", short enough for any timer (renewed while disabled). */
const DISABLED_HOLD_MS = 7 * 86_400_000;
/** A probe that hangs is a failed probe: the account stays out meanwhile. */
const PROBE_HOLD_MS = 120_000;

export interface HealthOptions {
  pool: Pool;
  log: Logger;
  /** The probe: a login (when needed) and a cheap authenticated call; throws the failure. */
  probe(account: string): Promise<void>;
  now?: () => number;
  random?: () => number;
  policy?: Partial<Record<FailureClass, Partial<ClassPolicy>>>;
}

/** How instances sharing the accounts share their health (src/shared-state/redis-health.ts); none in one process. */
export interface HealthSharing {
  /** After every local change: publish the record. */
  publish(account: string, record: HealthRecord): void;
  /** Whether this instance runs the probe that is due (one instance probes; the others adopt its outcome). */
  claimProbe(account: string): Promise<boolean>;
  releaseProbe(account: string): void;
}

const fresh = (now: number): HealthRecord => ({
  state: "healthy",
  class: null,
  since: now,
  until: null,
  streak: 0,
  consecutive: {},
  last_success_at: null,
  last_failure_at: null,
  events: [],
});

/** Whether a success of this kind proves what the account's state doubts. */
function ends(what: "call" | "answer" | "login" | "probe", r: HealthRecord): boolean {
  if (r.state === "probing") return what === "probe";
  if (what === "answer" || what === "probe") return true;
  if (r.class === "rate_limited") return false;
  // A login proves the credentials and the proxy path, not that completions are accepted again.
  return what === "call" || r.class === "credential_rejected" || r.class === "proxy_unreachable";
}

export class AccountHealth {
  private records = new Map<string, HealthRecord>();
  private timers = new Map<string, ReturnType<typeof setTimeout>>();
  private policy: Record<FailureClass, ClassPolicy>;
  private closed = false;
  private sharing?: HealthSharing;

  constructor(private readonly opts: HealthOptions) {
    this.policy = { ...DEFAULT_POLICY };
    this.setPolicy(opts.policy ?? {});
  }

  /** Overrides the backoff of some classes (tests use short cooldowns; an operator might too). */
  setPolicy(p: Partial<Record<FailureClass, Partial<ClassPolicy>>>): void {
    for (const [k, v] of Object.entries(p)) this.policy[k as FailureClass] = { ...this.policy[k as FailureClass], ...v };
  }

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  get(account: string): HealthRecord {
    return this.records.get(account) ?? fresh(this.now());
  }

  share(sharing: HealthSharing): void {
    this.sharing = sharing;
  }

  /** Adopts a record another instance wrote (shared mode); timers follow its state. */
  adopt(account: string, record: HealthRecord): void {
    this.records.set(account, record);
    if (record.state === "cooling_down" && record.until !== null) this.arm(account, record.until - this.now());
    else this.disarm(account);
  }

  private rec(account: string): HealthRecord {
    let r = this.records.get(account);
    if (!r) this.records.set(account, (r = fresh(this.now())));
    return r;
  }

  private event(account: string, r: HealthRecord, kind: HealthEventKind, cls: FailureClass | null, detail: string, requestId?: string | null): void {
    r.events.push({ at: new Date(this.now()).toISOString(), kind, class: cls, detail, request_id: requestId ?? null });
    if (r.events.length > HEALTH_EVENTS_KEPT) r.events.splice(0, r.events.length - HEALTH_EVENTS_KEPT);
  }

  private changed(account: string, r: HealthRecord): void {
    this.sharing?.publish(account, r);
  }

  /** Classifies a failure and records it; returns its class (null: the request's fault, not the account's). */
  failure(account: string, e: unknown, requestId?: string | null): FailureClass | null {
    const c = classifyFailure(e);
    if (!c) return null;
    this.record(account, c.cls, c.detail, requestId);
    return c.cls;
  }

  /** One classified failure of `account`: counts it and moves the state machine. */
  record(account: string, cls: FailureClass, detail: string, requestId?: string | null): void {
    const r = this.rec(account);
    const now = this.now();
    r.last_failure_at = now;
    r.consecutive[cls] = (r.consecutive[cls] ?? 0) + 1;
    this.event(account, r, "failure", cls, detail, requestId);
    this.opts.log.warn("account failure", { account: maskIdentifier(account), class: cls, state: r.state, detail, ...(requestId ? { request_id: requestId } : {}) });
    const p = this.policy[cls];
    const accountFault = p.threshold > 0;
    if (r.state === "probing") {
      // A probe that fails for a reason that is not the account's (core down) re-cools without escalating.
      if (accountFault) this.coolDown(account, r, cls, r.streak + 1, detail, requestId);
      else this.coolDown(account, r, r.class ?? cls, r.streak, `probe failed: ${detail}`, requestId, this.policy[r.class ?? cls]);
    } else if (r.state === "healthy" && accountFault && r.consecutive[cls]! >= p.threshold) {
      this.coolDown(account, r, cls, r.streak, detail, requestId);
    }
    this.changed(account, r);
  }

  private coolDown(account: string, r: HealthRecord, cls: FailureClass, streak: number, detail: string, requestId?: string | null, policy?: ClassPolicy): void {
    const p = policy && policy.baseMs > 0 ? policy : this.policy[cls].baseMs > 0 ? this.policy[cls] : DEFAULT_POLICY.credential_rejected;
    const now = this.now();
    r.class = cls;
    r.since = now;
    r.streak = streak;
    if (p.disableAfter > 0 && streak >= p.disableAfter) {
      r.state = "disabled_pending_operator";
      r.until = null;
      this.opts.pool.setCooldown(account, DISABLED_HOLD_MS);
      this.arm(account, DISABLED_HOLD_MS - 60_000);
      this.event(account, r, "disabled", cls, `${streak} cooldowns in a row for ${cls}: waiting for the operator (edit or test the account, or reset its health)`, requestId);
      this.opts.log.error("account disabled pending operator", { account: maskIdentifier(account), class: cls });
      return;
    }
    const ms = cls === "daily_cap" ? msUntilUtcMidnight(now) + 1000 : backoffMs(p, streak, this.opts.random);
    r.state = "cooling_down";
    r.until = now + ms;
    this.opts.pool.setCooldown(account, ms);
    this.arm(account, ms);
    this.event(account, r, "cooldown", cls, `cooling down for ${Math.round(ms / 1000)} s (cooldown ${streak + 1} in a row)`, requestId);
  }

  /**
   * A success: `call` (core accepted a call), `answer` (an answer showed text: clears the empty-output count
   * too), `login`. Any of them ends a cooldown early (a pinned request proved the account works), except while
   * a probe runs, which decides itself.
   */
  success(account: string, what: "call" | "answer" | "login" | "probe", requestId?: string | null): void {
    const r = this.records.get(account);
    if (!r) return;
    r.last_success_at = this.now();
    const rateCount = r.consecutive.rate_limited;
    r.consecutive = what === "answer" || rateCount === undefined ? {} : { rate_limited: rateCount };
    if (r.state === "healthy" || !ends(what, r)) return this.changed(account, r);
    const was = r.class;
    r.state = "healthy";
    r.class = null;
    r.until = null;
    r.streak = 0;
    r.since = this.now();
    this.disarm(account);
    this.opts.pool.clearCooldown(account);
    this.event(account, r, "recovered", was, what === "probe" ? "probe succeeded" : `a ${what} succeeded`, requestId);
    this.opts.log.info("account healthy again", { account: maskIdentifier(account), class: was ?? "" });
    this.changed(account, r);
  }

  /** The operator re-enables an account (or changed its secret): healthy, history kept. */
  reset(account: string, detail = "reset by the operator"): HealthRecord {
    const r = this.rec(account);
    r.state = "healthy";
    r.class = null;
    r.until = null;
    r.streak = 0;
    r.consecutive = {};
    r.since = this.now();
    this.disarm(account);
    this.opts.pool.clearCooldown(account);
    this.event(account, r, "operator", null, detail);
    this.changed(account, r);
    return r;
  }

  /** The account was removed: its record, timer and cooldown go (the same identifier added again starts fresh). */
  forget(account: string): void {
    this.disarm(account);
    if (this.records.delete(account)) this.opts.pool.clearCooldown(account);
  }

  /** Runs the probe now (the timer's job; tests and the console may call it). */
  async probe(account: string): Promise<HealthRecord> {
    const r = this.rec(account);
    if (r.state === "probing" || r.state === "healthy") return r;
    if (r.state === "disabled_pending_operator") {
      // Renew the hold; a disabled account is only probed when the operator asks (reset or test).
      this.opts.pool.setCooldown(account, DISABLED_HOLD_MS);
      this.arm(account, DISABLED_HOLD_MS - 60_000);
      return r;
    }
    // Shared: the instance that claims the probe runs it; the others hear its outcome.
    if (this.sharing && !(await this.sharing.claimProbe(account).catch(() => false))) return r;
    if (r.state !== "cooling_down") return r;
    r.state = "probing";
    r.until = null;
    this.opts.pool.setCooldown(account, PROBE_HOLD_MS);
    this.event(account, r, "probe", r.class, "cooldown over: probing with a login and a session list");
    this.changed(account, r);
    try {
      await this.opts.probe(account);
      this.success(account, "probe");
    } catch (e) {
      // The failure may have been recorded on its way (a login refused records itself); if not, here.
      if (r.state === "probing" && this.failure(account, e) === null) this.record(account, "core_error", `probe failed: ${(e as Error)?.message ?? e}`);
    } finally {
      this.sharing?.releaseProbe(account);
    }
    return r;
  }

  private arm(account: string, ms: number): void {
    this.disarm(account);
    if (this.closed) return;
    const t = setTimeout(() => {
      this.timers.delete(account);
      void this.probe(account).catch((e) => this.opts.log.warn("account probe failed unexpectedly", { account: maskIdentifier(account), error: String(e) }));
    }, Math.max(0, ms));
    (t as { unref?: () => void }).unref?.();
    this.timers.set(account, t);
  }

  private disarm(account: string): void {
    const t = this.timers.get(account);
    if (t) clearTimeout(t);
    this.timers.delete(account);
  }

  close(): void {
    this.closed = true;
    for (const a of [...this.timers.keys()]) this.disarm(a);
  }

  /** The admin view: state, class, times as ISO strings, counts, the events newest first. */
  view(account: string) {
    const r = this.get(account);
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    return {
      identifier: account,
      state: r.state,
      class: r.class,
      since: iso(r.since),
      until: iso(r.until),
      cooldowns_in_a_row: r.streak,
      consecutive_failures: r.consecutive,
      last_success_at: iso(r.last_success_at),
      last_failure_at: iso(r.last_failure_at),
      events: [...r.events].reverse(),
    };
  }
}
