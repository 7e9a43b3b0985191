// The turn runner (ARCHITECTURE.md, src/turn/): TurnRequest → prompt → lease → core frames → the pipeline's
// stages → TurnEvents. It owns the account lease for the whole life of the stream and releases it exactly
// once, when core's last body has ended or the client went away (D8.8); it switches accounts on the
// failures of D8.10 and retries an empty output once (D9.6).
import { GatewayError } from "../util/gateway-error";
import type { Lease } from "../accounts/pool";
import { LoginFailedError } from "../accounts/manager";
import type { TurnEvent, TurnRequest } from "../pipeline/types";
import type { AssemblerReport } from "../pipeline/turn-assembler";
import { showsAnswer } from "../pipeline/turn-accumulator";
import type { Caller } from "../accounts/caller";
import type { SyncTransformer } from "../pipeline/fuse";
import type { TurnEventSource } from "../pipeline/types";
import { DEFAULT_TOTAL_TIMEOUT_MS, StartDeadline, startTimeoutError, startTimeoutMessage } from "./start-deadline";

export type { TurnEventSource };

/** What one attempt on one account produced: core accepted the completion. */
export interface StartedAttempt {
  sessionId: string;
  account: string | null;
  events: TurnEventSource;
  report: AssemblerReport;
  promptTokens: number;
  /** The prompt text sent to core (chat history). */
  finalPrompt?: string;
}

/** One attempt on a given account (or the caller's token): upload, session, PoW, completion. */
export type AttemptFn = (args: {
  account: string | null;
  token: string;
  forceFileMode: boolean;
  signal: AbortSignal;
}) => Promise<StartedAttempt>;

export interface RunDeps {
  attempt: AttemptFn;
  acquire(opts: { pinned?: string; exclude: Set<string>; signal: AbortSignal }): Promise<Lease>;
  token(account: string, opts: { forceLogin?: boolean; signal: AbortSignal; requestId?: string }): Promise<string>;
  invalidateToken(account: string): void;
  /** After the client response is complete and core's body has ended (D8.13). */
  afterTurn(args: { account: string | null; token: string; sessionId: string }): void;
  /** File affinity (D8.14): the account that owns the referenced files, if any. */
  pinnedByFiles?: string;
  fileModeAvailable: boolean;
  accountCount(): number;
  /** Whether some configured account outside `exclude` could ever serve this request (not in login cooldown). */
  hasCandidate(exclude: ReadonlySet<string>): boolean;
  /** upstream.total_timeout_ms: how long the answer may take to start, queue waits excluded (D9.8). */
  totalTimeoutMs?: number;
  log: { warn(msg: string, f?: Record<string, unknown>): void };
  /** Account health (issue 32): an attempt's answer came back empty, or showed something. */
  onEmptyOutput?(account: string | null): void;
  onAnswer?(account: string | null): void;
  /** Told of each empty-output retry (D9.6), for the request log (issue 31). */
  onEmptyOutputRetry?: () => void;
}

export interface RunningTurn {
  /** The turn's events as a stream. Taking it (or replacing it) ends `source`: the stream owns the events then. */
  events: ReadableStream<TurnEvent>;
  /**
   * The same events pulled directly, a batch per read, for the SSE body (no stream machinery per core token: issue
   * 17, a token per write). Undefined once `events` was taken or replaced. Its cancel ends the turn.
   */
  source?: TurnEventSource;
  /**
   * Synchronous stages whoever reads `events` must run on them, before its own (the surface adds the chat history
   * tap and the request facts): run fused with the reader's stages, never as streams of their own (issue 17).
   */
  stages: SyncTransformer<TurnEvent, TurnEvent>[];
  sessionId: string;
  /** The prompt text core received (chat history, D12.4). */
  finalPrompt?: string;
  account: string | null;
  promptTokens: number;
  /** The current attempt's assembler facts (diagnostics; the runner decides from the events it passed on). */
  report(): AssemblerReport;
}

const MAX_ACCOUNTS = 3;

export interface CoreFailure extends Error {
  kind: string;
}

function isCoreFailure(e: unknown): e is CoreFailure {
  return e instanceof Error && typeof (e as CoreFailure).kind === "string";
}

/** Maps a failure before the response started to the client-facing error of D4.3 / core-upstream §10.7. */
export function clientError(e: unknown, mode: Caller["mode"]): GatewayError {
  if (e instanceof GatewayError) return e;
  if (isCoreFailure(e)) {
    switch (e.kind) {
      case "upstream_auth":
        return mode === "passthrough"
          ? new GatewayError(401, "invalid_upstream_token", "The credential is not a configured key and core rejected it as a token.")
          : new GatewayError(503, "upstream_unavailable", "Core rejected the account's credentials.");
      case "input_exceeds_limit":
        return new GatewayError(400, "context_length_exceeded", "The conversation is too long for the model.");
      case "upstream_invalid_ref_file_id":
        return new GatewayError(400, "invalid_request", "A referenced file does not belong to the account serving this request.");
      case "upstream_timeout":
        return new GatewayError(503, "upstream_timeout", "Core sent nothing for too long.");
      case "upstream_empty_output":
        return new GatewayError(503, "upstream_empty_output", "Core returned an empty answer.");
      case "model_unavailable":
        return new GatewayError(503, "model_unavailable", "Core refused the model.");
      case "current_input_file_upload_failed":
        return new GatewayError(503, "current_input_file_upload_failed", "Uploading the conversation context file to core failed.");
      default:
        return new GatewayError(503, "upstream_unavailable", "Core is unavailable; the request failed after retries.");
    }
  }
  if (e instanceof LoginFailedError) return new GatewayError(503, "upstream_auth_failed", "Every candidate account failed to log in.");
  return new GatewayError(503, "upstream_unavailable", "Core is unavailable.");
}

/** Kinds where another account can help (D8.10); the rest fail the request at once. */
const SWITCHABLE = new Set(["upstream_error", "upstream_busy", "upstream_pow_failed", "upstream_rate_limited", "upstream_auth", "upstream_empty_output"]);

/** One started attempt whose lease and clean-up are still owed: settled exactly once, whichever way it ends. */
interface LiveAttempt {
  started: StartedAttempt;
  source: TurnEventSource;
  /** Releases the lease and schedules the session clean-up (D8.8, D8.13); idempotent. */
  settle(): void;
}

export async function runTurn(deps: RunDeps, req: TurnRequest, caller: Caller, signal: AbortSignal): Promise<RunningTurn> {
  const pinned = caller.pinned ?? deps.pinnedByFiles;
  const tried = new Set<string>();
  // The turn's own lifetime: ended by the client (request signal) or by cancelling the returned stream. Every
  // core call of the turn hangs off it, and its abort settles the live attempt whatever any stream is doing —
  // a pending read that never settles must not keep a slot (issue 15).
  const life = new AbortController();
  const onClientAbort = () => life.abort(signal.reason ?? new DOMException("client went away", "AbortError"));
  if (signal.aborted) onClientAbort();
  else signal.addEventListener("abort", onClientAbort, { once: true });
  let current: LiveAttempt | null = null;
  life.signal.addEventListener(
    "abort",
    () => {
      const c = current;
      if (!c) return;
      c.source.cancel(life.signal.reason).catch(() => {});
      c.settle();
    },
    { once: true },
  );
  const detach = () => signal.removeEventListener("abort", onClientAbort);
  // Every core call of the turn (logins, sessions, PoW, completions) hangs off `work`: the client's end aborts
  // it, and so does the start deadline (D9.8), which aborts only the core work and answers upstream_timeout.
  const work = new AbortController();
  life.signal.addEventListener("abort", () => work.abort(life.signal.reason), { once: true });
  let onExpired: () => void = () => {};
  const expiry = new Promise<null>((resolve) => (onExpired = () => resolve(null)));
  const deadline = new StartDeadline(deps.totalTimeoutMs ?? DEFAULT_TOTAL_TIMEOUT_MS, () => {
    work.abort(startTimeoutError());
    onExpired();
  });
  deadline.run();

  const live = (started: StartedAttempt, lease: Lease | null, token: string): LiveAttempt => {
    let settled = false;
    return {
      started,
      source: started.events,
      settle() {
        if (settled) return;
        settled = true;
        lease?.release();
        deps.afterTurn({ account: started.account, token, sessionId: started.sessionId });
      },
    };
  };

  /** One account-level try, with the D8.10 login and file-mode rules; returns the attempt holding its lease. */
  const startOn = async (exclude: Set<string>): Promise<LiveAttempt> => {
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
          lease = await deps.acquire({ pinned, exclude, signal: life.signal });
        } finally {
          deadline.run();
        }
      }
      const account = lease?.account ?? null;
      let token = caller.token;
      let forceFileMode = false;
      let reloggedIn = false;
      for (;;) {
        try {
          if (account) token = await deps.token(account, { signal: work.signal, forceLogin: reloggedIn });
          const started = await deps.attempt({ account, token, forceFileMode, signal: work.signal });
          return live(started, lease, token);
        } catch (e) {
          lastError = e;
          if (life.signal.aborted) {
            lease?.release();
            throw e;
          }
          if (deadline.expired) {
            lease?.release();
            throw startTimeoutError();
          }
          if (!isCoreFailure(e) && !(e instanceof LoginFailedError) && !(e instanceof GatewayError))
            deps.log.warn("core attempt failed unexpectedly", { error: describeError(e) });
          if (e instanceof LoginFailedError) {
            loginFailures++;
            break;
          }
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
          break;
        }
      }
      lease?.release();
      if (!account || pinned || !(isCoreFailure(lastError) ? SWITCHABLE.has(lastError.kind) : lastError instanceof LoginFailedError)) break;
      exclude.add(account);
    }
    if (loginFailures > 0 && !isCoreFailure(lastError)) throw new GatewayError(503, "upstream_auth_failed", "Every candidate account failed to log in.");
    throw clientError(lastError, caller.mode);
  };

  try {
    current = await startOn(tried);
  } catch (e) {
    deadline.disarm();
    detach();
    throw e;
  }
  if (life.signal.aborted) current.settle();
  const first = current;
  if (first.started.account) tried.add(first.started.account);
  let retried = false;
  /** Something of the answer (thinking, visible text, a call) reached the reader. */
  let shown = false;
  /** Core's first token arrived (isFirstToken): the start deadline no longer applies. */
  let started = false;

  let over = false;
  /** Settles the live attempt once the turn is over, however it ended. */
  const close = () => {
    over = true;
    deadline.disarm();
    current?.settle();
    detach();
  };
  /** Ends the turn: an abort is an error for whoever still reads, never a silent end of the answer. */
  const end = (error?: unknown): null => {
    close();
    if (life.signal.aborted) throw life.signal.reason;
    if (error !== undefined) throw error;
    return null;
  };
  /** Events of an attempt that was then retried, passed on with what follows them (they showed nothing). */
  let carried: TurnEvent[] = [];
  const withCarried = (events: TurnEvent[]): TurnEvent[] => {
    if (carried.length === 0) return events;
    const all = [...carried, ...events];
    carried = [];
    return all;
  };

  /** The turn's next events (never an empty batch), or null once it has ended. */
  const next = async (): Promise<TurnEvent[] | null> => {
    if (over) return null;
    for (;;) {
      const c = current!;
      let batch: TurnEvent[] | null;
      try {
        // Until core's first event the start deadline may end the wait (a read of a core that accepted the
        // completion and then says nothing would otherwise last until the 300 s silence limit).
        const read = c.source.next();
        // A read the deadline overtook is cancelled below; its late rejection is nobody's error.
        if (!started) read.catch(() => {});
        batch = await (started ? read : Promise.race([read, expiry]));
      } catch (e) {
        if (!deadline.expired || started) return end(e);
        batch = null;
      }
      if (deadline.expired && !started && !life.signal.aborted) {
        // The stream has begun (HTTP 200 is out): the deadline is reported in it (D4.5), and core's request is
        // already aborted.
        await c.source.cancel(work.signal.reason).catch(() => {});
        close();
        return withCarried([{ type: "error", status: 503, code: "upstream_timeout", message: startTimeoutMessage }]);
      }
      if (batch !== null && !started && batch.some(isFirstToken)) {
        started = true;
        deadline.disarm();
      }
      if (batch === null || life.signal.aborted) return end();
      let retry = false;
      let terminal = false;
      let passed = 0;
      for (const value of batch) {
        // D9.6 reads what the client was shown from the events themselves, not from a stage's side state.
        if (value.type === "error" && value.code === "upstream_empty_output") deps.onEmptyOutput?.(c.started.account);
        if (value.type === "error" && value.code === "upstream_empty_output" && !retried && !shown) {
          retry = true;
          break;
        }
        if (!shown && showsAnswer(value)) {
          shown = true;
          deps.onAnswer?.(c.started.account);
        }
        passed++;
        if (value.type === "finish" || value.type === "error") terminal = true;
      }
      const events = passed === batch.length ? batch : batch.slice(0, passed);
      if (retry) {
        // D9.6: nothing reached the client yet, so one retry is invisible to it. The empty attempt is ended
        // first: its slot must not wait for a stream nobody reads any more.
        carried = withCarried(events);
        retried = true;
        deps.onEmptyOutputRetry?.();
        await c.source.cancel("empty output: retried").catch(() => {});
        c.settle();
        try {
          current = await startOn(retryExclude());
        } catch (e) {
          if (life.signal.aborted) return end();
          // The retry failed too: the answer stays what the first attempt was, an empty output (D9.6), whatever
          // stopped the retry (a queue wait, a login) — never a 429 inside a started stream.
          close();
          return withCarried([{ type: "error", status: 503, code: "upstream_empty_output", message: "Core returned an empty answer." }]);
        }
        current.started.finalPrompt = undefined;
        if (current.started.account) tried.add(current.started.account);
        if (life.signal.aborted) return end();
        continue;
      }
      // A finish or an error is the last event of an answer (core's body has ended by then): the lease is
      // settled now, not when a reader asks once more — a reader that stops at the last event (a non-stream
      // collector) would otherwise hold the slot for good.
      if (terminal) close();
      const out = withCarried(events);
      if (out.length > 0) return out;
    }
  };

  const source: TurnEventSource = {
    next,
    async cancel(reason) {
      // A turn that is over has nothing left to stop (as a closed stream ignores a cancel).
      if (over) return;
      life.abort(reason ?? new DOMException("stream cancelled", "AbortError"));
      detach();
    },
  };

  /** Another eligible account; the same one when pinned, when it is the only one, or when no other can serve (D9.6). */
  function retryExclude(): Set<string> {
    if (pinned || deps.accountCount() <= 1) return new Set<string>();
    const others = new Set(tried);
    return deps.hasCandidate(others) ? others : new Set<string>();
  }

  // The prompt is handed to the caller once (chat history) and not kept by the attempt for the stream's life.
  const finalPrompt = first.started.finalPrompt;
  first.started.finalPrompt = undefined;
  let stream: ReadableStream<TurnEvent> | undefined;
  const running: RunningTurn = {
    // Whoever takes the stream owns the turn's events from then on: the direct source is gone.
    get events() {
      running.source = undefined;
      return (stream ??= eventStream(source));
    },
    set events(replaced) {
      running.source = undefined;
      stream = replaced;
    },
    source,
    stages: [],
    sessionId: first.started.sessionId,
    finalPrompt,
    account: first.started.account,
    promptTokens: first.started.promptTokens,
    report: () => current!.started.report,
  };
  return running;
}

/** The turn's events as a stream, for readers that want one (the JSON-output stage, the admin account test). */
function eventStream(source: TurnEventSource): ReadableStream<TurnEvent> {
  return new ReadableStream<TurnEvent>(
    {
      async pull(controller) {
        let batch: TurnEvent[] | null;
        try {
          batch = await source.next();
        } catch (e) {
          controller.error(e);
          return;
        }
        if (batch === null) controller.close();
        else for (const ev of batch) controller.enqueue(ev);
      },
      cancel: (reason) => source.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

/** Core's first token ends the start deadline (D9.8); its keep-alives and empty deltas do not. */
function isFirstToken(e: TurnEvent): boolean {
  if (e.type === "keepalive") return false;
  if (e.type === "thinking" || e.type === "text") return e.text !== "";
  return true;
}

/** A log-worthy description of an unexpected failure: never empty (an AbortError's stack can be ""). */
function describeError(e: unknown): string {
  if (e instanceof Error) return e.stack || `${e.name}: ${e.message}` || e.name;
  return String(e);
}
