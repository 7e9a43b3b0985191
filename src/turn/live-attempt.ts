// A started attempt whose lease and clean-up are still owed (D8.8, D8.13): settled exactly once, whichever way the
// turn ends — its last event, the client leaving, an empty-output retry replacing it.
import type { Lease } from "../accounts/pool";
import type { TurnEvent } from "../pipeline/types";
import type { RunDeps, StartedAttempt, TurnEventSource } from "./types";

export interface LiveAttempt {
  started: StartedAttempt;
  /** The turn reader's hold on the attempt's event stream. */
  source: TurnEventSource;
  /** Releases the lease and schedules the session clean-up (D8.8, D8.13); idempotent. */
  settle(): void;
}

/** `lease` is null for the caller's own token (pass-through): there is no slot, only the clean-up. */
export function liveAttempt(started: StartedAttempt, lease: Lease | null, token: string, afterTurn: RunDeps["afterTurn"]): LiveAttempt {
  let settled = false;
  return {
    started,
    source: readerOf(started.events),
    settle() {
      if (settled) return;
      settled = true;
      lease?.release();
      afterTurn({ account: started.account, token, sessionId: started.sessionId });
    },
  };
}

/** The attempt's event stream read a batch at a time; cancel ends the attempt (its pipe cancels core's frames). */
export function readerOf(events: ReadableStream<TurnEvent[]>): TurnEventSource {
  const reader = events.getReader();
  return {
    async next() {
      const r = await reader.read();
      return r.done ? null : r.value;
    },
    cancel: (reason) => reader.cancel(reason),
  };
}
