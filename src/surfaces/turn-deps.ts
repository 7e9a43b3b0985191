// What the turn runner needs from the gateway for one business request (RunDeps), as one object whose methods
// read the request's parts as data: the pool, the accounts and the core client from the context; the request's
// timeline (issue 31) and every attempt and login reported to account health (issue 32). An open stream keeps its
// runner's deps for as long as it lives; built as closures (twice: the deps, then health's wrapper around them)
// they were ≈ 25 functions and their scopes per open stream (issue 35).
import type { AppContext } from "../context";
import type { Caller } from "../accounts/caller";
import type { Lease } from "../accounts/pool";
import { LoginFailedError } from "../accounts/manager";
import { classifyFailure, type FailureClass } from "../accounts/health-classes";
import { effectiveCurrentInputFile } from "../config/effective";
import type { Timeline } from "../metering/timeline";
import type { TurnRequest } from "../pipeline/types";
import { runAttempt } from "../turn/attempt";
import type { AttemptFn, RunDeps, StartedAttempt } from "../turn/types";
import { explainUnavailable } from "./turn-health";

export class BusinessTurnDeps implements RunDeps {
  readonly fileModeAvailable: boolean;
  readonly totalTimeoutMs: number | undefined;
  readonly log: RunDeps["log"];
  /** The class of each account this request tried and failed on (the 503's cause); made on the first failure. */
  private failed: Map<string, FailureClass | "failed"> | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly turn: TurnRequest,
    private readonly caller: Caller,
    private readonly requestId: string,
    private readonly tl: Timeline,
    readonly pinnedByFiles: string | undefined,
  ) {
    const cfg = ctx.config.get();
    this.fileModeAvailable = effectiveCurrentInputFile(cfg).enabled;
    this.totalTimeoutMs = cfg.upstream?.total_timeout_ms ?? undefined;
    this.log = ctx.log;
  }

  /** One attempt; core accepting it is a success of the account, a failure is recorded against it. */
  async attempt(a: Parameters<AttemptFn>[0]): Promise<StartedAttempt> {
    const { ctx, requestId } = this;
    try {
      const started = await runAttempt(ctx, this.turn, this.caller, requestId, this.tl, a);
      if (a.account) ctx.health.success(a.account, "call", requestId);
      return started;
    } catch (e) {
      if (!a.signal.aborted && a.account) {
        if (e instanceof LoginFailedError) this.fail(a.account, ctx.health.get(a.account).class ?? "credential_rejected");
        else this.fail(a.account, ctx.health.failure(a.account, e, requestId) ?? "failed");
      }
      throw e;
    }
  }

  acquire(o: { pinned?: string; exclude: Set<string>; signal: AbortSignal }): Promise<Lease> {
    this.tl.attempts.accounts += 1;
    const pool = this.ctx.pool;
    return this.tl.time("queue", pool.acquire(o));
  }

  async token(account: string, o: { forceLogin?: boolean; signal: AbortSignal; requestId?: string }): Promise<string> {
    const { ctx } = this;
    try {
      return await this.tl.time("login", ctx.accounts.token(account, { ...o, requestId: this.requestId }));
    } catch (e) {
      // Login failures record themselves in the manager; here only what this request saw.
      if (!o.signal.aborted) this.fail(account, e instanceof LoginFailedError ? (ctx.health.get(account).class ?? "credential_rejected") : (classifyFailure(e)?.cls ?? "failed"));
      throw e;
    }
  }

  invalidateToken(account: string): void {
    this.ctx.accounts.invalidate(account);
  }

  afterTurn(a: { account: string | null; token: string; sessionId: string }): void {
    this.ctx.sessions.afterTurn({ ...a, mode: this.caller.mode });
  }

  accountCount(): number {
    return this.ctx.pool.accountCount();
  }

  hasCandidate(exclude: ReadonlySet<string>): boolean {
    return this.ctx.pool.hasCandidate(exclude);
  }

  onEmptyOutputRetry(): void {
    this.tl.attempts.empty_output_retries += 1;
  }

  onEmptyOutput(account: string | null): void {
    if (!account) return;
    this.fail(account, "rate_limited");
    this.ctx.health.record(account, "rate_limited", "core returned an empty answer (core's only rate-limit signal, core-upstream §10.8)", this.requestId);
  }

  onAnswer(account: string | null): void {
    if (account) this.ctx.health.success(account, "answer", this.requestId);
  }

  /** A 503 whose message names the classes that made the candidates unavailable; other errors unchanged. */
  explain(e: unknown): unknown {
    return explainUnavailable(this.ctx, e, this.failed ?? new Map());
  }

  private fail(account: string, cls: FailureClass | "failed"): void {
    (this.failed ??= new Map()).set(account, cls);
  }
}
