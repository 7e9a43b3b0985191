// Non-stream responses: collect the TurnEvents of one turn into a TurnResult, rendered once by a surface.
import { GatewayError } from "../util/gateway-error";
import type { FinishedCall, TurnEvent, TurnResult } from "./types";
import { TurnAccumulator } from "./turn-accumulator";

/**
 * Reads a turn's events to the end into one TurnResult: the stream the SSE body would read. An error event ends
 * the read and cancels the stream, so whatever produces it is released at once.
 *
 * A reader of its own rather than `for await`: the iterator releases its lock when the stream ends, and a release
 * rejects the reader's `closed` promise with a new TypeError, stack trace and all — two per request
 * (bench/alloc-types.ts). A stream that has ended needs no release: the reader goes with it.
 */
export async function collectTurn(events: ReadableStream<TurnEvent[]>): Promise<TurnResult> {
  const acc = new TurnAccumulator();
  const reader = events.getReader();
  for (;;) {
    const r = await reader.read();
    if (r.done) return acc.result();
    for (const ev of r.value) {
      acc.push(ev);
      if (acc.error) {
        await reader.cancel().catch(() => {});
        throw new GatewayError(acc.error.status, acc.error.code, acc.error.message);
      }
    }
  }
}

/** Finished calls in index order (unfinished calls are omitted by every non-stream renderer). */
export function finishedCalls(result: TurnResult): FinishedCall[] {
  return result.calls.filter((c) => c.finished).sort((a, b) => a.index - b.index);
}
