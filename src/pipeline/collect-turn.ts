// Non-stream responses: collect the TurnEvents of one turn into a TurnResult, rendered once by a surface.
import { GatewayError } from "../util/gateway-error";
import type { FinishedCall, TurnEvent, TurnResult } from "./types";
import { TurnAccumulator } from "./turn-accumulator";

export async function collectTurn(events: ReadableStream<TurnEvent>): Promise<TurnResult> {
  const acc = new TurnAccumulator();
  const reader = events.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    acc.push(value);
    if (acc.error) throw new GatewayError(acc.error.status, acc.error.code, acc.error.message);
  }
  return acc.result();
}

/** Finished calls in index order (unfinished calls are omitted by every non-stream renderer). */
export function finishedCalls(result: TurnResult): FinishedCall[] {
  return result.calls.filter((c) => c.finished).sort((a, b) => a.index - b.index);
}
