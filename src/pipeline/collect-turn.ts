// Non-stream responses: collect the TurnEvents of one turn into a TurnResult, rendered once by a surface.
import { GatewayError } from "../util/gateway-error";
import type { FinishedCall, TurnEvent, TurnResult } from "./types";
import { TurnAccumulator } from "./turn-accumulator";
import type { StageController, SyncTransformer } from "./stage";
import type { BatchSource } from "./staged-stream";

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

/**
 * As collectTurn, read straight from `source` through `stage` (the turn's taps, composed): no stream between them
 * (issue 35, CPU per non-stream request — the stream, its controller, its reader and a pull per batch were the
 * collector's own layer). The stream's rules hold: the stage starts before the first event and flushes at the
 * source's end, an error event or a stage's error or termination ends the read and cancels the source, and what a
 * stage emits on its own (a timer) goes to the same result.
 */
export async function collectFrom(source: BatchSource<TurnEvent>, stage: SyncTransformer<TurnEvent, TurnEvent> | null): Promise<TurnResult> {
  const sink = new CollectSink();
  try {
    sink.inStage = true;
    stage?.start?.(sink);
    sink.inStage = false;
    while (!sink.over) {
      // A source that fails has ended: its error is the answer's, with nothing to cancel.
      const batch = await source.next();
      if (sink.over) break;
      if (batch === null) {
        sink.ended = true;
        stage?.flush?.(sink);
        sink.over = true;
        break;
      }
      sink.inStage = true;
      for (let i = 0; i < batch.length && !sink.over; i++) {
        if (stage) stage.transform(batch[i]!, sink);
        else sink.enqueue(batch[i]!);
      }
      sink.inStage = false;
    }
  } catch (e) {
    // A stage threw: the source is cancelled, as a failing stage's pipe does.
    if (sink.inStage && !sink.ended) await source.cancel(e).catch(() => {});
    throw e;
  }
  if (!sink.ended) await source.cancel(sink.failure?.reason).catch(() => {});
  if (sink.failure) throw sink.failure.reason;
  const { acc } = sink;
  if (acc.error) throw new GatewayError(acc.error.status, acc.error.code, acc.error.message);
  return acc.result();
}

/** The stage's controller: what it emits goes into the result; an error event, an error or a terminate end it. */
class CollectSink implements StageController<TurnEvent> {
  readonly acc = new TurnAccumulator();
  over = false;
  /** The source reached its end (nothing to cancel). */
  ended = false;
  /** A stage call is running (a throw is the stage's, not the source's). */
  inStage = false;
  failure: { reason: unknown } | null = null;

  enqueue(ev: TurnEvent): void {
    if (this.over) return;
    this.acc.push(ev);
    if (this.acc.error) this.over = true;
  }

  error(reason?: unknown): void {
    if (this.over) return;
    this.over = true;
    this.failure = { reason };
  }

  terminate(): void {
    this.over = true;
  }
}

/** Finished calls in index order (unfinished calls are omitted by every non-stream renderer). */
export function finishedCalls(result: TurnResult): FinishedCall[] {
  return result.calls.filter((c) => c.finished).sort((a, b) => a.index - b.index);
}
