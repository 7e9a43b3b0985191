// The detector stage: core frames → CoreEvents (coreReduce) → TurnEvents (the assembler: svcml detection,
// cleaning, finish), as one TransformStream of batches (svcml-and-prompts.md §2.1, §4.1; D9.5–D9.7). The reducer
// and the assembler are one stage because each CoreEvent goes straight on to the assembler: a stream between them
// would cost a trip through the stream machinery per batch and carry nothing another stage reads. Each step stays
// a separately tested function, CoreReducer (core-reduce.ts) and TurnAssembler (turn-assembler.ts);
// tests/pipeline/core-to-turn.test.ts checks that the joined step emits exactly what the two separate ones emit.
import type { CoreFrame } from "../core/completion";
import { CoreReducer, MergedEvents, type ReduceOptions } from "./core-reduce";
import { TurnAssembler, type AssemblerOptions, type AssemblerReport } from "./turn-assembler";
import type { TurnEvent } from "./types";

/** The joined step: frames in, the TurnEvents they complete out. */
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


/**
 * The joined step as the pipeline's detector stage: a batch of frames in, the batch of TurnEvents it completes
 * out (none sent when empty); the end of core's frames is the reducer's end and the assembler's finish.
 */
export function coreToTurnStage(steps: CoreToTurnSteps): TransformStream<CoreFrame[], TurnEvent[]> {
  return new TransformStream<CoreFrame[], TurnEvent[]>({
    transform(batch, c) {
      const out = steps.push(batch);
      if (out.length > 0) c.enqueue(out);
    },
    flush(c) {
      const out = steps.end();
      if (out.length > 0) c.enqueue(out);
    },
  });
}
