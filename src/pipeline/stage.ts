// A pipeline stage as the design draws it: one TransformStream, joined to the others with pipeThrough. A chunk is
// a batch of events (what one read from core completed), not one event: the stream machinery's cost is paid once
// per batch and stage, so a token-by-token answer and a burst of a thousand tokens cost about the same per event
// (docs/choices.md "The pipeline"). A stage's logic is a SyncTransformer — the Streams standard's Transformer,
// restricted to synchronous calls, over single events — tested on its own; batchStage runs it over each batch.

/** What a stage may do with its output: a subset of TransformStreamDefaultController. */
export interface StageController<O> {
  enqueue(chunk: O): void;
  error(reason?: unknown): void;
  terminate(): void;
}

/** A stage's logic over single events; `enqueue` may also be called later on its own (a timer's flush). */
export interface SyncTransformer<I, O> {
  start?(c: StageController<O>): void;
  transform(chunk: I, c: StageController<O>): void;
  flush?(c: StageController<O>): void;
}

/**
 * `stage` as a TransformStream of batches. What the stage emits while handling a batch leaves as one batch (an
 * empty one is not sent); what it emits on its own, between batches, leaves at once. After the stage errors or
 * terminates the stream, the rest of the batch is not handed to it.
 */
export function batchStage<I, O>(stage: SyncTransformer<I, O>): TransformStream<I[], O[]> {
  return new TransformStream<I[], O[]>(new BatchTransformer(stage));
}

/**
 * A class, not closures: an open stream keeps its stages for as long as it lives (issue 17, memory per stream).
 * It is the stage's controller as well as the stream's transformer.
 */
class BatchTransformer<I, O> implements Transformer<I[], O[]>, StageController<O> {
  private controller!: TransformStreamDefaultController<O[]>;
  private out: O[] = [];
  /** Inside a call into the stage: its output is gathered into one batch. */
  private inCall = false;
  private over = false;

  constructor(private readonly stage: SyncTransformer<I, O>) {}

  start(c: TransformStreamDefaultController<O[]>): void {
    this.controller = c;
    this.gathered(() => this.stage.start?.(this));
  }

  transform(batch: I[]): void {
    if (this.over) return;
    this.inCall = true;
    try {
      for (let i = 0; i < batch.length && !this.over; i++) this.stage.transform(batch[i]!, this);
    } finally {
      this.inCall = false;
    }
    this.send();
  }

  flush(): void {
    if (this.over) return;
    this.gathered(() => this.stage.flush?.(this));
    this.over = true;
  }

  /** Runs a call into the stage (not the per-batch one: that loop is kept free of a closure) and sends its output. */
  private gathered(call: () => void): void {
    this.inCall = true;
    try {
      call();
    } finally {
      this.inCall = false;
    }
    this.send();
  }

  cancel(): void {
    // The client went away (or the source failed): a stage's own timer must not write into a closed stream.
    this.over = true;
    this.out = [];
  }

  enqueue(chunk: O): void {
    if (this.over) return;
    this.out.push(chunk);
    if (!this.inCall) this.send();
  }

  error(reason?: unknown): void {
    if (this.over) return;
    this.over = true;
    this.out = [];
    this.controller.error(reason);
  }

  terminate(): void {
    if (this.over) return;
    this.send();
    this.over = true;
    this.controller.terminate();
  }

  private send(): void {
    if (this.out.length === 0) return;
    const batch = this.out;
    this.out = [];
    try {
      this.controller.enqueue(batch);
    } catch {
      // The readable side is gone (cancelled): nobody reads any more.
      this.over = true;
    }
  }
}
