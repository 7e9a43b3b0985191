// Non-stream responses: collect the TurnEvents of one turn into a TurnResult, rendered once by a surface.
import { GatewayError } from "../util/gateway-error";
import type { FinishedCall, TurnEvent, TurnResult } from "./types";
import { TurnAccumulator } from "./turn-accumulator";
import { drainStaged, type BatchSource } from "./staged-stream";
import type { SyncTransformer } from "./stage";

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

/**
 * collectTurn over `stagedStream(source, stage)` without building the stream (issue 35, CPU per non-stream
 * request): the same batches reach the same accumulator in the same order, an error event ends the read and
 * cancels the source, a failure rejects with its reason. tests/pipeline/staged-drain.test.ts runs both over the
 * svcml vectors and hostile core answers.
 */
export async function collectStaged(source: BatchSource<TurnEvent>, stage: SyncTransformer<TurnEvent, TurnEvent> | null): Promise<TurnResult> {
  const acc = new TurnAccumulator();
  await drainStaged(source, stage, (batch) => {
    for (const ev of batch) {
      acc.push(ev);
      if (acc.error) return true;
    }
    return false;
  });
  if (acc.error) throw new GatewayError(acc.error.status, acc.error.code, acc.error.message);
  return acc.result();
}

/** Finished calls in index order (unfinished calls are omitted by every non-stream renderer). */
export function finishedCalls(result: TurnResult): FinishedCall[] {
  return result.calls.filter((c) => c.finished).sort((a, b) => a.index - b.index);
}
