// Non-stream responses: collect the TurnEvents of one turn into a TurnResult, rendered once by a surface.
import { GatewayError } from "../util/gateway-error";
import type { FinishedCall, TurnEvent, TurnResult } from "./types";
import { TurnAccumulator } from "./turn-accumulator";

/**
 * Reads a turn's events to the end into one TurnResult: the stream the SSE body would read, with `for await`.
 * An error event ends the read, and leaving the loop cancels the stream, so whatever produces it is released at
 * once.
 */
export async function collectTurn(events: ReadableStream<TurnEvent[]>): Promise<TurnResult> {
  const acc = new TurnAccumulator();
  // (The DOM typings Bun uses here do not declare ReadableStream async-iterable; the runtime's is.)
  for await (const batch of events as unknown as AsyncIterable<TurnEvent[]>) {
    for (const ev of batch) {
      acc.push(ev);
      if (acc.error) throw new GatewayError(acc.error.status, acc.error.code, acc.error.message);
    }
  }
  return acc.result();
}

/** Finished calls in index order (unfinished calls are omitted by every non-stream renderer). */
export function finishedCalls(result: TurnResult): FinishedCall[] {
  return result.calls.filter((c) => c.finished).sort((a, b) => a.index - b.index);
}
