// Scripted parts for the runner's unit tests: attempts that give set batches, leases that record their release,
// core failures by kind. No core, no pool.
import { readerOf, type LiveAttempt } from "../../src/turn/live-attempt";
import type { StartedAttempt } from "../../src/turn/types";
import type { TurnEvent } from "../../src/pipeline/types";

/** A core failure as src/core/errors.ts makes them: an Error with a `kind`. */
export const coreFailure = (kind: string) => Object.assign(new Error(`core: ${kind}`), { kind });

export const usage = { promptTokens: 1, completionTokens: 1, reasoningTokens: 0, totalTokens: 2 };
export const finish = { type: "finish", outcome: "stop", usage } as TurnEvent;
export const emptyOutput: TurnEvent = { type: "error", status: 503, code: "upstream_empty_output", message: "Core returned an empty answer." };

/** A started attempt whose events are `batches`, one per read, then the end; `cancelled` records cancels. */
export function scripted(account: string | null, batches: TurnEvent[][], cancelled: unknown[] = []): StartedAttempt {
  return {
    sessionId: `s-${account}`,
    account,
    promptTokens: 1,
    events: batchStream(batches, cancelled),
  };
}

/** `batches` as an attempt's event stream, pulled one per read; `cancelled` records cancels. */
export function batchStream(batches: TurnEvent[][], cancelled: unknown[] = []): ReadableStream<TurnEvent[]> {
  let i = 0;
  return new ReadableStream<TurnEvent[]>(
    {
      pull: (c) => (i < batches.length ? c.enqueue(batches[i++]!) : c.close()),
      cancel: (reason) => void cancelled.push(reason),
    },
    { highWaterMark: 0 },
  );
}

/** A live attempt over `started` whose settling is recorded in `log` (as "settled <account>"). */
export function liveOf(started: StartedAttempt, log: string[]): LiveAttempt {
  let settled = false;
  return {
    started,
    source: readerOf(started.events),
    settle() {
      if (settled) return;
      settled = true;
      log.push(`settled ${started.account}`);
    },
  };
}
