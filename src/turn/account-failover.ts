// Leasing with account switching (D8.9, D8.10): one try of the turn on an account (or the caller's own token),
// moving to another eligible account on the failures another account can help with, at most MAX_ACCOUNTS per
// request and never when pinned. Returns the attempt holding its lease; a failure is the client-facing error.
import { GatewayError } from "../util/gateway-error";
import type { Lease } from "../accounts/pool";
import { LoginFailedError } from "../accounts/manager";
import type { Caller } from "../accounts/caller";
import { clientError, isCoreFailure } from "./client-error";
import { liveAttempt, type LiveAttempt } from "./live-attempt";
import { startTimeoutError } from "./start-deadline";
import type { TurnLife } from "./turn-life";
import type { RunDeps } from "./types";

export const MAX_ACCOUNTS = 3;

/** Kinds where another account can help (D8.10); the rest fail the request at once. */
const SWITCHABLE = new Set(["upstream_error", "upstream_busy", "upstream_pow_failed", "upstream_rate_limited", "upstream_auth", "upstream_empty_output"]);

/** Whether a failure on one account sends the request to the next one (D8.9: a failed login does too). */
export function switchesAccount(e: unknown): boolean {
  return isCoreFailure(e) ? SWITCHABLE.has(e.kind) : e instanceof LoginFailedError;
}

export type FailoverDeps = Pick<RunDeps, "attempt" | "acquire" | "token" | "invalidateToken" | "afterTurn" | "fileModeAvailable" | "accountCount" | "hasCandidate" | "log">;

export interface Failover {
  deps: FailoverDeps;
  caller: Pick<Caller, "mode" | "token">;
  /** The account the request must use (X-Svc-Target-Account or file affinity): no switching then. */
  pinned?: string;
  life: TurnLife;
}

/** Starts the turn on the first account outside `exclude` that takes it; tried accounts are added to `exclude`. */
export async function startOnAccounts(f: Failover, exclude: Set<string>): Promise<LiveAttempt> {
  const { deps, caller, pinned, life } = f;
  const deadline = life.deadline;
  let lastError: unknown = null;
  let loginFailures = 0;
  for (let n = 0; n < MAX_ACCOUNTS; n++) {
    // Waiting in the queue for an account this request may not use would only end in a queue_timeout: when no
    // untried account can ever serve it, the last core failure is the answer, at once (issue 15).
    if (caller.mode === "managed" && !pinned && deps.accountCount() > 0 && !deps.hasCandidate(exclude)) {
      if (n > 0) break;
      throw new GatewayError(503, "upstream_auth_failed", "Every account is cooling down; try again later.");
    }
    if (deadline.expired) throw startTimeoutError();
    let lease: Lease | null = null;
    if (caller.mode === "managed") {
      // The queue wait has its own limit (queue_wait_seconds): the start deadline's clock stops meanwhile.
      deadline.pause();
      try {
        // The work signal: the deadline is paused meanwhile, so only the turn's end aborts the wait.
        lease = await deps.acquire({ pinned, exclude, signal: life.workSignal });
      } finally {
        deadline.run();
      }
    }
    const account = lease?.account ?? null;
    const tried = await tryAccount(f, account, lease);
    if ("started" in tried) return tried;
    lastError = tried.error;
    if (tried.error instanceof LoginFailedError) loginFailures++;
    lease?.release();
    if (!account || pinned || !switchesAccount(lastError)) break;
    exclude.add(account);
  }
  if (loginFailures > 0 && !isCoreFailure(lastError)) throw new GatewayError(503, "upstream_auth_failed", "Every candidate account failed to log in.");
  throw clientError(lastError, caller.mode);
}

/**
 * The attempts on one account: a token core rejects is cleared and one fresh login tried (D8.9); a prompt too long
 * is tried once more in file mode (D8.10). Gives the live attempt, or the failure that ended the account's turn.
 * The turn's end and the start deadline end the request at once (the lease is released first).
 */
async function tryAccount(f: Failover, account: string | null, lease: Lease | null): Promise<LiveAttempt | { error: unknown }> {
  const { deps, caller, life } = f;
  let token = caller.token;
  let forceFileMode = false;
  let reloggedIn = false;
  for (;;) {
    try {
      if (account) token = await deps.token(account, { signal: life.workSignal, forceLogin: reloggedIn });
      const started = await deps.attempt({ account, token, forceFileMode, signal: life.workSignal });
      return liveAttempt(started, lease, token, deps);
    } catch (e) {
      if (life.ended) {
        lease?.release();
        throw e;
      }
      if (life.deadline.expired) {
        lease?.release();
        throw startTimeoutError();
      }
      if (!isCoreFailure(e) && !(e instanceof LoginFailedError) && !(e instanceof GatewayError))
        deps.log.warn("core attempt failed unexpectedly", { error: describeError(e) });
      if (isCoreFailure(e)) {
        if (e.kind === "upstream_auth" && account && !reloggedIn) {
          // D8.9: a token core rejects is cleared and one fresh login is tried.
          deps.invalidateToken(account);
          reloggedIn = true;
          continue;
        }
        if (e.kind === "input_exceeds_limit" && !forceFileMode && deps.fileModeAvailable) {
          forceFileMode = true;
          continue;
        }
      }
      return { error: e };
    }
  }
}

/** A log-worthy description of an unexpected failure: never empty (an AbortError's stack can be ""). */
function describeError(e: unknown): string {
  if (e instanceof Error) return e.stack || `${e.name}: ${e.message}` || e.name;
  return String(e);
}
