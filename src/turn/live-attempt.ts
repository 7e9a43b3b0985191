// A started attempt whose lease and clean-up are still owed (D8.8, D8.13): settled exactly once, whichever way the
// turn ends — its last event, the client leaving, an empty-output retry replacing it.
import type { Lease } from "../accounts/pool";
import type { TurnEvent } from "../pipeline/types";
import type { RunDeps, StartedAttempt, TurnEventSource } from "./types";
import { readerSource } from "../pipeline/staged-stream";

export interface LiveAttempt {
  started: StartedAttempt;
  /** The turn reader's hold on the attempt's event stream. */
  source: TurnEventSource;
  /** Releases the lease and schedules the session clean-up (D8.8, D8.13); idempotent. */
  settle(): void;
}

type AfterTurn = Pick<RunDeps, "afterTurn">;

/**
 * `lease` is null for the caller's own token (pass-through): there is no slot, only the clean-up. `after` is the
 * runner's deps (their `afterTurn` is called as a method) or the clean-up itself.
 */
export function liveAttempt(started: StartedAttempt, lease: Lease | null, token: string, after: AfterTurn | RunDeps["afterTurn"]): LiveAttempt {
  return new LeasedAttempt(started, lease, token, typeof after === "function" ? { afterTurn: after } : after);
}

/** A class, not closures: an open stream keeps its attempt for as long as it lives (issue 35). */
class LeasedAttempt implements LiveAttempt {
  readonly source: TurnEventSource;
  private settled = false;

  constructor(
    readonly started: StartedAttempt,
    private lease: Lease | null,
    private readonly token: string,
    private readonly after: AfterTurn,
  ) {
    this.source = started.source ?? readerOf(started.events);
  }

  settle(): void {
    if (this.settled) return;
    this.settled = true;
    const lease = this.lease;
    this.lease = null;
    lease?.release();
    this.after.afterTurn({ account: this.started.account, token: this.token, sessionId: this.started.sessionId });
  }
}

/** The attempt's event stream read a batch at a time; cancel ends the attempt (its pipe cancels core's frames). */
export function readerOf(events: ReadableStream<TurnEvent[]>): TurnEventSource {
  return readerSource(events);
}
