// The middle of the pipeline as one stage: core frames → CoreEvents (coreReduce) → TurnEvents (the assembler:
// svcml detection, cleaning, finish). The design draws these as separate TransformStreams; they are fused here
// because every layer costs an open stream about twenty objects and each event a trip through the stream
// machinery (bench/stream-layers.ts, docs/PERFORMANCE.md). Each step stays a separately tested function:
// CoreReducer (core-reduce.ts) and TurnAssembler (turn-assembler.ts); tests/pipeline/core-to-turn.test.ts checks
// that the fused stage emits exactly what the two separate stages emit.
import type { CoreFrame } from "../core/completion";
import { CoreReducer, MergedEvents, type ReduceOptions } from "./core-reduce";
import { TurnAssembler, type AssemblerOptions, type AssemblerReport } from "./turn-assembler";
import type { TurnEvent } from "./types";

export function coreToTurn(reduce: ReduceOptions, assemble: AssemblerOptions, report: AssemblerReport): TransformStream<CoreFrame | CoreFrame[], TurnEvent> {
  const reducer = new CoreReducer(reduce);
  const assembler = new TurnAssembler(assemble, report);
  return new TransformStream<CoreFrame | CoreFrame[], TurnEvent>({
    transform(input, c) {
      const emit = (ev: TurnEvent) => c.enqueue(ev);
      // Same-channel text of one batch is merged before the assembler, as the separate coreReduce stage does.
      const merged = new MergedEvents({ enqueue: (ev) => assembler.push(ev, emit) });
      if (Array.isArray(input)) for (const f of input) reducer.push(f, merged.emit);
      else reducer.push(input, merged.emit);
      merged.flush();
    },
    flush(c) {
      const emit = (ev: TurnEvent) => c.enqueue(ev);
      reducer.end((ev) => assembler.push(ev, emit));
    },
  });
}
