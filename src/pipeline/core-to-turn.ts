// The middle of the pipeline as one step: core frames → CoreEvents (coreReduce) → TurnEvents (the assembler:
// svcml detection, cleaning, finish). The design draws these as separate TransformStreams; they are fused here,
// and the turn runner calls the fused step directly on each batch of frames it reads (src/turn/attempt.ts),
// because every layer costs an open stream about twenty objects and each event a trip through the stream
// machinery (bench/stream-layers.ts, docs/PERFORMANCE.md). Each step stays a separately tested function:
// CoreReducer (core-reduce.ts) and TurnAssembler (turn-assembler.ts); tests/pipeline/core-to-turn.test.ts checks
// that the fused stage emits exactly what the two separate stages emit.
import type { CoreFrame } from "../core/completion";
import { CoreReducer, MergedEvents, type ReduceOptions } from "./core-reduce";
import { TurnAssembler, type AssemblerOptions, type AssemblerReport } from "./turn-assembler";
import type { TurnEvent } from "./types";

/** The fused step: frames in, the TurnEvents they complete out. */
export interface CoreToTurnSteps {
  push(input: CoreFrame | CoreFrame[]): TurnEvent[];
  /** Core's body ended: the reducer's end and the assembler's finish. */
  end(): TurnEvent[];
}

export function coreToTurnSteps(reduce: ReduceOptions, assemble: AssemblerOptions, report: AssemblerReport): CoreToTurnSteps {
  const reducer = new CoreReducer(reduce);
  const assembler = new TurnAssembler(assemble, report);
  let out: TurnEvent[] = [];
  const emit = (ev: TurnEvent) => {
    out.push(ev);
  };
  // Same-channel text of one batch is merged before the assembler, as the separate coreReduce stage does.
  const merged = new MergedEvents({ enqueue: (ev) => assembler.push(ev, emit) });
  const take = () => {
    const events = out;
    out = [];
    return events;
  };
  return {
    push(input) {
      if (Array.isArray(input)) reducer.pushAll(input, merged.emit);
      else reducer.push(input, merged.emit);
      merged.flush();
      return take();
    },
    end() {
      reducer.end((ev) => assembler.push(ev, emit));
      return take();
    },
  };
}

