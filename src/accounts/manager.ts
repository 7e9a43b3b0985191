// Managed accounts at run time (D8.1, D8.9, D8.12; core-upstream §10.2): tokens with single-flight login and
// refresh by age, login cooldown, and the in-memory test status. The pool decides who runs; this decides
// with which token.
import type { ConfigStore } from "../config/store";
import { accountIdentifier, findAccount, normaliseIdentifier } from "../config/identity";
import type { Account } from "../config/schema";
import { effectiveRuntime } from "../config/effective";
import type { Logger } from "../util/log";
import type { Pool } from "./pool-api";
import { CoreError, LoginError } from "../core/errors";
import { GatewayError } from "../util/gateway-error";
import { isoAt } from "../store/iso-time";
import type { LoginCoordinator } from "./login-coordinator";
import type { AccountHealth } from "./health";
import { classifyLoginRefusal, maskIdentifier, type FailureClass } from "./health-classes";

export const LOGIN_COOLDOWN_MS = 300_000;

export type TestStatus = "untested" | "ok" | "failed";

export interface AccountRuntime {
  test_status: TestStatus;
  tested_at: string | null;
  test_message: string;
}

export type LoginFn = (account: Account, signal?: AbortSignal) => Promise<string>;

export class LoginFailedError extends Error {
  constructor(
    readonly account: string,
    message: string,
  ) {
    super(message);
    this.name = "LoginFailedError";
  }
}

export class AccountManager {
  /** Each account's last test or use: its status and message, and when (ms; put as text only when read). */
  private runtime = new Map<string, { status: TestStatus; at: number; message: string }>();
  private loginAt = new Map<string, number>();
  private inflightLogin = new Map<string, Promise<string>>();
  private memoryTokens = new Map<string, string>();
  private readonly startedAt: number;
  /** Set once the health tracker exists (it probes through this manager): it decides every cooldown. */
  health?: AccountHealth;

  constructor(
    private readonly opts: {
      config: ConfigStore;
      pool: Pool;
      login: LoginFn;
      log: Logger;
      now?: () => number;
      /** Several instances sharing the accounts (issue 21): one login per account among them all. */
      logins?: LoginCoordinator;
    },
  ) {
    this.startedAt = this.now();
    opts.logins?.follow((id, token, at) => {
      // Another instance logged in: its token is the account's current one here too.
      this.memoryTokens.set(id, token);
      this.loginAt.set(id, at);
      this.mark(id, "ok", "login succeeded");
    });
  }

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  accounts(): readonly Account[] {
    return this.opts.config.get().accounts ?? [];
  }

  ids(): string[] {
    return this.accounts().map(accountIdentifier);
  }

  /** Finds an account by email, mobile or token:<hash>, normalised as D8.1 says. */
  find(raw: string): Account | undefined {
    const id = normaliseIdentifier(raw);
    return findAccount(this.accounts(), id);
  }

  status(id: string): AccountRuntime {
    const r = this.runtime.get(id);
    if (!r) return { test_status: "untested", tested_at: null, test_message: "" };
    return { test_status: r.status, tested_at: r.status === "untested" ? null : isoAt(r.at), test_message: r.message };
  }

  /**
   * Every completion core accepts marks its account "ok" (issue 35: once per request): the entry is updated in
   * place and its time kept as a number, formatted only when the status is read.
   */
  mark(id: string, status: TestStatus, message = ""): void {
    const at = this.now();
    const r = this.runtime.get(id);
    if (!r) this.runtime.set(id, { status, at, message });
    else {
      r.status = status;
      r.at = at;
      r.message = message;
    }
  }

  /** A password or token change makes the account untested again (D8.12). */
  resetStatus(id: string): void {
    // New credentials deserve a fresh start: a cooldown or a disable for the old ones no longer applies.
    if (this.health && this.health.get(id).state !== "healthy") this.health.reset(id, "the account's credentials changed");
    this.runtime.delete(id);
    this.loginAt.delete(id);
    this.memoryTokens.delete(id);
  }

  private cachedToken(acc: Account, id: string): string | undefined {
    return this.memoryTokens.get(id) ?? (acc.token || undefined);
  }

  /**
   * The token for a request on this account: logs in when there is none or it is older than
   * token_refresh_interval_hours (age from the last login in this process). One login per account at a time.
   */
  async token(id: string, opts: { forceLogin?: boolean; signal?: AbortSignal; requestId?: string } = {}): Promise<string> {
    const acc = findAccount(this.accounts(), id);
    if (!acc) throw new LoginFailedError(id, `account ${id} is no longer configured`);
    const cached = this.cachedToken(acc, id);
    const hours = effectiveRuntime(this.opts.config.get()).token_refresh_interval_hours;
    const age = this.now() - (this.loginAt.get(id) ?? this.startedAt);
    const canLogin = Boolean(acc.password && (acc.email || acc.mobile));
    if (cached && !opts.forceLogin && (age < hours * 3600_000 || !canLogin)) return cached;
    if (!canLogin) {
      if (cached && !opts.forceLogin) return cached;
      // Token-only accounts cannot log in: a rejected token puts them in cooldown (D8.9).
      this.fail(id, "the token was rejected and the account has no password to log in again", "credential_rejected", undefined, opts.requestId);
    }
    let pending = this.inflightLogin.get(id);
    if (!pending) {
      // The login belongs to the account, not to the request that happened to start it: a client that leaves
      // must neither cancel it for the others waiting on it nor count as a failed login (issue 15). It is
      // bounded by the core client's own request timeout.
      pending = this.login(acc, id, cached, opts.requestId).finally(() => this.inflightLogin.delete(id));
      this.inflightLogin.set(id, pending);
    }
    return untilAborted(pending, opts.signal);
  }

  /** Core rejected the token: forget it so the next token() logs in. */
  invalidate(id: string): void {
    this.memoryTokens.delete(id);
    this.loginAt.delete(id);
  }

  private fail(id: string, message: string, cls: FailureClass, detail = message, requestId?: string): never {
    if (this.health) this.health.record(id, cls, detail, requestId);
    else this.opts.pool.setCooldown(id, LOGIN_COOLDOWN_MS);
    this.mark(id, "failed", message);
    this.opts.log.warn("account login failed", { account: maskIdentifier(id), class: cls, reason: message });
    throw new LoginFailedError(id, message);
  }

  private async login(acc: Account, id: string, stale: string | undefined, requestId?: string, signal?: AbortSignal): Promise<string> {
    let token: string;
    let ownLogin = true;
    try {
      if (this.opts.logins) {
        const got = await this.opts.logins.exclusive(id, stale, () => this.opts.login(acc, signal), () => this.opts.pool.inCooldown(id));
        token = got.token;
        ownLogin = got.ownLogin;
      } else token = await this.opts.login(acc, signal);
    } catch (e) {
      // The shared store being down says nothing about the credentials either (503 store_unavailable).
      if (e instanceof GatewayError && e.status === 503) throw e;
      // Core down or answering 5xx says nothing about the credentials: the request fails over as for any
      // core failure, and the account stays eligible once core is back.
      if (e instanceof LoginError && e.reason === "unreachable") {
        // The cause travels on (proxy, base URL, network, 5xx); only a proxy failure cools the account (health).
        const err = new CoreError("upstream_error", e.message, e.status);
        err.origin = e.origin;
        if (this.health) this.health.failure(id, err, requestId);
        else this.opts.log.warn("account login could not reach core", { account: maskIdentifier(id), reason: e.message });
        throw err;
      }
      const message = (e as Error).message || "login failed";
      const c = classifyLoginRefusal(message);
      this.fail(id, message, c.cls, c.detail, requestId);
    }
    this.loginAt.set(id, this.now());
    this.memoryTokens.set(id, token);
    this.mark(id, "ok", "login succeeded");
    if (this.health) this.health.success(id, "login");
    else this.opts.pool.clearCooldown(id);
    // The instance that logged in persists the token (and the shared config carries it to the others).
    if (ownLogin) await this.persistToken(id, token);
    return token;
  }

  /** New tokens go to accounts[].token (D8.9); when the config is not writable they live in memory only. */
  private async persistToken(id: string, token: string): Promise<void> {
    try {
      const result = await this.opts.config.update((c) => {
        const list = c.accounts ?? [];
        const i = list.findIndex((a) => accountIdentifier(a) === id);
        if (i >= 0) list[i] = { ...list[i], token };
      });
      if (!result.config_writable) this.opts.log.warn("login token kept in memory only", { account: id, reason: result.config_warning ?? "" });
    } catch (e) {
      this.opts.log.warn("login token kept in memory only", { account: id, reason: String((e as Error).message) });
    }
  }
}

/** `promise`, or a rejection with the signal's reason as soon as it aborts; the promise itself runs on. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}
