// The detector stage: core frames → CoreEvents (coreReduce) → TurnEvents (the assembler: svcml detection,
// cleaning, finish), as one TransformStream of batches (svcml-and-prompts.md §2.1, §4.1; D9.5–D9.7). The reducer
// and the assembler are one stage because each CoreEvent goes straight on to the assembler: a stream between them
// would cost a trip through the stream machinery per batch and carry nothing another stage reads. Each step stays
// a separately tested function, CoreReducer (core-reduce.ts) and TurnAssembler (turn-assembler.ts);
// tests/pipeline/core-to-turn.test.ts checks that the joined step emits exactly what the two separate ones emit.
import { framesThrough, type CoreFrame } from "../core/completion";
import { CoreReducer, type ReduceOptions } from "./core-reduce";
import { MergedEvents } from "./merged-events";
import { TurnAssembler, type AssemblerOptions, type AssemblerReport } from "./turn-assembler";
import type { CoreEvent, TurnEvent } from "./types";
import type { BatchSource } from "./staged-stream";
import { none, pushed } from "../util/none";

/** The joined step: frames in, the TurnEvents they complete out. */
export interface CoreToTurnSteps {
  push(input: CoreFrame | CoreFrame[]): TurnEvent[];
  /** Core's body ended: the reducer's end and the assembler's finish. */
  end(): TurnEvent[];
}

export function coreToTurnSteps(reduce: ReduceOptions, assemble: AssemblerOptions, report: AssemblerReport): CoreToTurnSteps {
  return new JoinedSteps(new CoreReducer(reduce), new TurnAssembler(assemble, report));
}

/** The joined step as one object (an open stream keeps it for as long as it lives: no closures of its own). */
class JoinedSteps implements CoreToTurnSteps {
  private out: TurnEvent[] = none();
  /** What the assembler emits: gathered for the caller. */
  private readonly emit = (ev: TurnEvent): void => {
    this.out = pushed(this.out, ev);
  };
  // Same-channel text of one batch is merged before the assembler, as the separate coreReduce stage does.
  private readonly merged = new MergedEvents(this);

  constructor(
    private readonly reducer: CoreReducer,
    private readonly assembler: TurnAssembler,
  ) {}

  /** The merged events' way on: the assembler. */
  enqueue(ev: CoreEvent): void {
    this.assembler.push(ev, this.emit);
  }

  push(input: CoreFrame | CoreFrame[]): TurnEvent[] {
    if (Array.isArray(input)) this.reducer.pushAll(input, this.merged.emit);
    else this.reducer.push(input, this.merged.emit);
    this.merged.flush();
    return this.take();
  }

  end(): TurnEvent[] {
    // The reducer's end goes to the assembler event by event, unmerged (a closure made once, at the end).
    this.reducer.end((ev) => this.enqueue(ev));
    return this.take();
  }

  private take(): TurnEvent[] {
    const events = this.out;
    this.out = none();
    return events;
  }
}

/**
 * The detector stage as a pulled source over core's frames, with no stream of its own (issue 35: a TransformStream
 * and its pipe are dozens of objects an open stream holds): each `next` reads core's frames until the joined step
 * completes some events. Cancelling it cancels the frames (core's request is aborted); a step that throws cancels
 * them too, as a failing stage's pipe does.
 */
export function coreToTurnSource(frames: BatchSource<CoreFrame>, steps: CoreToTurnSteps): BatchSource<TurnEvent> {
  // Core's completion applies the step in its own read (one suspended frame per open stream, not two); any other
  // source of frames is read through the step here.
  return framesThrough(frames, steps) ?? new CoreToTurnSource(frames, steps);
}

class CoreToTurnSource implements BatchSource<TurnEvent> {
  private ended = false;

  constructor(
    private readonly frames: BatchSource<CoreFrame>,
    private readonly steps: CoreToTurnSteps,
  ) {}

  async next(): Promise<TurnEvent[] | null> {
    for (;;) {
      if (this.ended) return null;
      const batch = await this.frames.next();
      let out: TurnEvent[];
      try {
        if (batch === null) {
          this.ended = true;
          out = this.steps.end();
        } else out = this.steps.push(batch);
      } catch (e) {
        this.ended = true;
        this.frames.cancel(e).catch(() => {});
        throw e;
      }
      if (out.length > 0) return out;
    }
  }

  cancel(reason?: unknown): Promise<void> {
    this.ended = true;
    return this.frames.cancel(reason);
  }
}
