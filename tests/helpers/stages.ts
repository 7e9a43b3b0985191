// The pipeline's steps as TransformStreams of single items, for tests that drive them with adversarial chunkings.
// Production runs them over batches (src/pipeline/stage.ts batchStage, core-to-turn.ts coreToTurnSource); these
// adapters only wrap the same step objects, so what a test sees is what the gateway runs.
import type { CoreFrame } from "../../src/core/completion";
import { CoreReducer, type ReduceOptions } from "../../src/pipeline/core-reduce";
import { MergedEvents } from "../../src/pipeline/merged-events";
import { coreToTurnSource, coreToTurnSteps } from "../../src/pipeline/core-to-turn";
import { readerSource, stagedStream } from "../../src/pipeline/staged-stream";
import type { SyncTransformer } from "../../src/pipeline/stage";
import { TurnAssembler, type AssemblerOptions, type AssemblerReport } from "../../src/pipeline/turn-assembler";
import type { CoreEvent, TurnEvent } from "../../src/pipeline/types";
import { VisibleCleaner } from "../../src/pipeline/cleaner";
import { makeDetector, makeFallback } from "../../src/pipeline/svcml-stage";

/** A SyncTransformer stage on its own. */
export function stageStream<I, O>(t: SyncTransformer<I, O>): TransformStream<I, O> {
  return new TransformStream<I, O>({
    start: t.start && ((c) => t.start!(c)),
    transform: (chunk, c) => t.transform(chunk, c),
    flush: t.flush && ((c) => t.flush!(c)),
  });
}

/** CoreReducer as a stage: a batch of frames merges its same-channel text, as the fused step does. */
export function coreReduce(opts: ReduceOptions): TransformStream<CoreFrame | CoreFrame[], CoreEvent> {
  const reducer = new CoreReducer(opts);
  return new TransformStream<CoreFrame | CoreFrame[], CoreEvent>({
    transform(input, c) {
      if (!Array.isArray(input)) {
        reducer.push(input, (ev) => c.enqueue(ev));
        return;
      }
      const out = new MergedEvents(c);
      for (const f of input) reducer.push(f, out.emit);
      out.flush();
    },
    flush(c) {
      reducer.end((ev) => c.enqueue(ev));
    },
  });
}

/** TurnAssembler as a stage. */
export function assembleTurn(opts: AssemblerOptions, report: AssemblerReport): TransformStream<CoreEvent, TurnEvent> {
  const step = new TurnAssembler(opts, report);
  return new TransformStream<CoreEvent, TurnEvent>({
    transform(ev, c) {
      step.push(ev, (e) => c.enqueue(e));
    },
  });
}

/**
 * The production detector step as the runner reads it (coreToTurnSource: batches of frames in, batches of
 * TurnEvents out, here over a stream of frame batches and read as a stream) with single
 * frames wrapped as batches of one and its output flattened, so a test compares it event for event.
 */
export function coreToTurn(reduce: ReduceOptions, assemble: AssemblerOptions, report: AssemblerReport): TransformStream<CoreFrame | CoreFrame[], TurnEvent> {
  const input = new TransformStream<CoreFrame | CoreFrame[], CoreFrame[]>({
    transform: (x, c) => c.enqueue(Array.isArray(x) ? x : [x]),
  });
  const flat = new TransformStream<TurnEvent[], TurnEvent>({
    transform(batch, c) {
      for (const ev of batch) c.enqueue(ev);
    },
  });
  const events = stagedStream(coreToTurnSource(readerSource(input.readable), coreToTurnSteps(reduce, assemble, report)), null);
  return { writable: input.writable, readable: events.pipeThrough(flat) };
}

/** The assembler's options as a turn has them for `tools` (no tools: no detector), with call ids call_1, call_2, ... */
export function assemblerOptions(tools: string[], exposeThinking: boolean): AssemblerOptions {
  let n = 0;
  const newCallId = () => `call_${++n}`;
  const defs = tools.map((name) => ({ name }));
  return {
    exposeThinking,
    detector: defs.length ? makeDetector({ tools: defs, suppress: false, newId: newCallId }) : undefined,
    fallback: defs.length ? makeFallback(defs) : undefined,
    newCallId,
    textCleaner: new VisibleCleaner(),
    thinkingCleaner: new VisibleCleaner(),
    promptTokens: 12,
  };
}
