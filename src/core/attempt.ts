// The per-account retry loop (core-upstream §10.7, D8.10) for ONE account: up to 3 attempts with a backoff of
// 250 ms × attempt, a fresh PoW each attempt (openCompletion solves one), a new session once a started stream
// broke, busy answers counted as attempts, and one re-login through a callback on an auth failure. Account
// switching, the pool and empty-output retries belong to the caller (the turn runner, src/turn/); the hooks here let
// it watch and clean up.
import type { CoreClient, SolvedPow } from "./client";
import { abortableSleep } from "../util/abortable-sleep";
import { COMPLETION_TARGET } from "./wire";
import type { CompletionRequest, CoreCompletion, CoreFrame, RoundSink, RoundInfo } from "./completion";
import { CoreError, retryable } from "./errors";
import type { ProxySpec } from "./proxy-spec";

export const ATTEMPTS_PER_ACCOUNT = 3;
export const BACKOFF_STEP_MS = 250;

export type CompletionInput = Omit<CompletionRequest, "token" | "sessionId" | "signal" | "proxy">;

export interface AccountAttemptOptions {
  client: CoreClient;
  token: string;
  request: CompletionInput;
  signal?: AbortSignal;
  proxy?: ProxySpec;
  /** Default 3. */
  attempts?: number;
  /** Injectable for tests; must reject when the signal aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Called once after an auth failure (§10.2): clears the token, logs in again and returns the new one. */
  relogin?: () => Promise<string>;
  /** Every failed attempt, before the backoff (logging, metrics). */
  onAttemptFailed?: (error: CoreError, attempt: number) => void;
  /** A session given up after a broken attempt, for clean-up (§10.4: every session is cleaned up). */
  onSessionAbandoned?: (sessionId: string, token: string) => void;
}

export interface AccountAttemptResult extends CoreCompletion {
  /** The token that succeeded (a re-login replaces the one passed in). */
  token: string;
  /** 1-based number of the attempt that core accepted. */
  attempt: number;
}


/** Did core already answer this attempt's completion with a body (so the session may be in use)? */
function streamStarted(e: CoreError): boolean {
  return e.status === 200 || e.kind === "upstream_busy";
}

/** Resolves with the joined stream once core accepted the completion; rejects with the last CoreError. */
export async function runAccountAttempts(o: AccountAttemptOptions): Promise<AccountAttemptResult> {
  const attempts = o.attempts ?? ATTEMPTS_PER_ACCOUNT;
  const sleep = o.sleep ?? abortableSleep;
  let token = o.token;
  let sessionId: string | null = null;
  let reloggedIn = false;
  let last: unknown = null;
  for (let attempt = 1; attempt <= attempts; ) {
    try {
      let pow: SolvedPow | undefined;
      if (sessionId === null) {
        // The session and the completion's PoW are independent calls: made side by side, the completion starts
        // one round trip to core sooner (issue 17). A failed session creation leaves the PoW unused.
        const solving = o.client.solvePow(token, COMPLETION_TARGET, { signal: o.signal, proxy: o.proxy });
        solving.catch(() => {});
        sessionId = await o.client.createSession(token, { signal: o.signal, proxy: o.proxy });
        pow = await solving;
      }
      const c = await o.client.completion({ ...o.request, token, sessionId, pow, signal: o.signal, proxy: o.proxy });
      return Object.assign(c, { token, attempt });
    } catch (e) {
      last = e;
      if (o.signal?.aborted || !(e instanceof CoreError)) throw e;
      o.onAttemptFailed?.(e, attempt);
      if (e.kind === "upstream_auth" && o.relogin && !reloggedIn) {
        // The completion restarts from session creation with the new token; this does not use up an attempt.
        reloggedIn = true;
        if (sessionId) o.onSessionAbandoned?.(sessionId, token);
        sessionId = null;
        token = await o.relogin();
        continue;
      }
      // The gateway's own daily cap: another try on this account cannot help (issue 32).
      if (!retryable(e.kind) || e.origin === "pacing") throw e;
      if (sessionId && streamStarted(e)) {
        o.onSessionAbandoned?.(sessionId, token);
        sessionId = null;
      }
      if (attempt < attempts) await sleep(BACKOFF_STEP_MS * attempt, o.signal);
      attempt++;
    }
  }
  throw last;
}

// ---- the entry point the turn uses (src/turn/attempt.ts) ----

export interface CompletionParams {
  modelType: string;
  prompt: string;
  refFileIds: string[];
  thinking: boolean;
  search: boolean;
  passThrough: Record<string, unknown>;
}

export interface CompletionOptions {
  signal: AbortSignal;
  proxy?: ProxySpec;
  sleep?: (ms: number) => Promise<void>;
  onRound?: (round: RoundInfo) => RoundSink | undefined;
  idleTimeoutMs?: number;
  /** Awaited right before each completion is sent (the account's pacing, issue 32). */
  beforeSend?: (signal: AbortSignal) => Promise<void>;
}

export interface StartedCompletion {
  sessionId: string;
  /** Core's frames, decoded once; a failure after the start is the typed last frame (D4.5); cancel it to abort. */
  frames: ReadableStream<CoreFrame[]>;
}

/** The retry loop without a re-login (the turn runner does its own, D8.9). */
export async function startCompletion(client: CoreClient, token: string, params: CompletionParams, opts: CompletionOptions): Promise<StartedCompletion> {
  const r = await runAccountAttempts({
    client,
    token,
    request: { ...params, onRound: opts.onRound, idleTimeoutMs: opts.idleTimeoutMs, beforeSend: opts.beforeSend },
    signal: opts.signal,
    proxy: opts.proxy,
    sleep: opts.sleep ? (ms) => opts.sleep!(ms) : undefined,
  });
  return startedOf(r);
}

/**
 * Outside startCompletion on purpose: a closure made inside an async function keeps its whole scope (the
 * request with its prompt) alive as long as the closure lives, here the whole open stream.
 */
function startedOf(r: CoreCompletion): StartedCompletion {
  // The completion itself: its frames stream is built only when read (the turn reads asFrameSource(r); issue 35).
  return r;
}
