// Non-stream responses: collect the TurnEvents of one turn into a TurnResult, rendered once by a surface.
import { GatewayError } from "../util/gateway-error";
import type { FinishedCall, TurnEvent, TurnEventSource, TurnResult } from "./types";
import { TurnAccumulator } from "./turn-accumulator";
import { chainStages, type SyncTransformer } from "./fuse";

/**
 * Reads a turn's events to the end into one TurnResult. `stages` (the chat history tap, the request facts) run
 * on the events first, by direct calls: a non-stream answer needs no stream between the runner and here. The
 * events come as the runner's batches, or as a stream (a turn whose stream was taken or replaced).
 */
export async function collectTurn(events: ReadableStream<TurnEvent> | TurnEventSource, stages: SyncTransformer<TurnEvent, TurnEvent>[] = []): Promise<TurnResult> {
  const acc = new TurnAccumulator();
  let failure: unknown;
  const chain = chainStages<TurnEvent, TurnEvent>(stages, {
    enqueue: (ev) => acc.push(ev),
    error: (reason) => (failure ??= reason),
    terminate: () => {},
  });
  const source = events instanceof ReadableStream ? batchesOf(events) : events;
  // Leaving before the end cancels the events, so whatever produces them is released at once.
  const stop = (e: unknown): never => {
    source.cancel(e).catch(() => {});
    throw e;
  };
  for (;;) {
    const batch = await source.next();
    if (batch === null) break;
    for (const ev of batch) {
      chain.push(ev);
      if (failure !== undefined) stop(failure);
      if (acc.error) stop(new GatewayError(acc.error.status, acc.error.code, acc.error.message));
    }
  }
  chain.end();
  if (acc.error) throw new GatewayError(acc.error.status, acc.error.code, acc.error.message);
  return acc.result();
}

/** A stream of events read as batches of one. */
export function batchesOf(events: ReadableStream<TurnEvent>): TurnEventSource {
  const reader = events.getReader();
  return {
    async next() {
      const r = await reader.read();
      return r.done ? null : [r.value];
    },
    cancel: (reason) => reader.cancel(reason),
  };
}

/** Finished calls in index order (unfinished calls are omitted by every non-stream renderer). */
export function finishedCalls(result: TurnResult): FinishedCall[] {
  return result.calls.filter((c) => c.finished).sort((a, b) => a.index - b.index);
}
