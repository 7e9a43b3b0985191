// The turn runner's contracts: what an attempt gives back, what the runner needs from the gateway, and the running
// turn it hands to a surface. Kept apart from runner.ts so the runner's parts can share them without importing it.
import type { Lease } from "../accounts/pool";
import type { TurnEvent } from "../pipeline/types";

/**
 * A reader of an attempt's event stream as the turn reader uses it (live-attempt.ts): the next batch, null once
 * the answer has ended; cancel ends the attempt.
 */
export interface TurnEventSource {
  next(): Promise<TurnEvent[] | null>;
  cancel(reason?: unknown): Promise<void>;
}

/** What one attempt on one account produced: core accepted the completion. */
export interface StartedAttempt {
  sessionId: string;
  account: string | null;
  /** Core's frames through the detector stage: the attempt's events, a batch per chunk. Cancel it to end the attempt. */
  events: ReadableStream<TurnEvent[]>;
  /** The same events read directly, without a stream (issue 35); when present the runner reads this, not `events`. */
  source?: TurnEventSource;
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
  /**
   * The turn's events, a batch per chunk (never an empty one): the stream the surface pipes through its stages
   * (pipeThrough, or replaces with what it piped) and the HTTP body or the non-stream collector reads. Cancelling
   * it ends the turn: core's request is aborted and the lease settled, in the runner's stream (runner.ts).
   */
  events: ReadableStream<TurnEvent[]>;
  sessionId: string;
  /** The prompt text core received (chat history, D12.4). */
  finalPrompt?: string;
  account: string | null;
  promptTokens: number;
}
