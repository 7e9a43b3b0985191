// Stages run inside one stream instead of one TransformStream each (issue 35, memory per open stream). Every
// pipeThrough hop is a TransformStream with its readable and writable sides, their controllers, the pipe's reader
// and writer and the promises of its read loop — dozens of objects an open stream holds for its whole life. The
// stages of a turn (its taps, the coalescer, the surface's renderer) are SyncTransformers, so they can run one
// after another in a single call: composeStages joins them into one stage, and stagedStream runs that stage over
// a pulled source of batches as one ReadableStream. The batching rules are batchStage's (stage.ts): what a
// batch produces leaves as one batch (never an empty one), what a stage emits on its own between batches (a
// timer's flush) leaves at once, and after a stage errors or terminates nothing more reaches it.
import type { StageController, SyncTransformer } from "./stage";
import { none, pushed } from "../util/none";

/** A pulled source of batches: the next one, null once it has ended; cancel ends it. */
export interface BatchSource<T> {
  next(): Promise<T[] | null>;
  cancel(reason?: unknown): Promise<void>;
}

/** `stages` joined into one: what stage i enqueues is stage i+1's input, the last one's is the output. */
export function composeStages<I, O>(stages: SyncTransformer<any, any>[]): SyncTransformer<I, O> {
  return stages.length === 1 ? (stages[0] as SyncTransformer<I, O>) : new ComposedStage<I, O>(stages);
}

/**
 * The controller a stage with a `start` gets inside a composed stage: such a stage may keep it and write on its own
 * later (a timer's flush), when no call into the chain says which stage is writing (a class: no closures).
 */
class Link implements StageController<unknown> {
  constructor(
    private readonly chain: ComposedStage<unknown, unknown>,
    private readonly index: number,
  ) {}

  enqueue(chunk: unknown): void {
    this.chain.enqueueFrom(this.index, chunk);
  }

  error(reason?: unknown): void {
    this.chain.fail(reason);
  }

  terminate(): void {
    this.chain.terminateAt(this.index);
  }
}

/** Stages a composed stage can hold: one bit each of a number keeps which of them are over. */
const MAX_COMPOSED = 30;

/**
 * The stages as one. While a stage's transform or flush runs, the composed stage is its controller (`at` says
 * whose call it is), so a chain needs no controller object per stage for as long as its stream is open (issue 35);
 * only a stage with a `start` gets a Link of its own.
 */
class ComposedStage<I, O> implements SyncTransformer<I, O>, StageController<unknown> {
  /** The controller the composed stage was last handed: the stream's (the same one for every call). */
  private out: StageController<O> | null = null;
  /** Bit i: stage i errored or terminated, and nothing more reaches it. */
  private overMask = 0;
  /** The stage whose transform or flush is running. */
  private at = 0;

  constructor(private readonly stages: SyncTransformer<any, any>[]) {
    if (stages.length > MAX_COMPOSED) throw new RangeError(`at most ${MAX_COMPOSED} stages compose into one`);
  }

  start(c: StageController<O>): void {
    this.out = c;
    // Last stage first: as in a pipe chain, every stage has started before it is handed anything.
    for (let i = this.stages.length - 1; i >= 0; i--) if (!this.isOver(i)) this.stages[i]!.start?.(new Link(this as ComposedStage<unknown, unknown>, i));
  }

  transform(chunk: I, c: StageController<O>): void {
    this.out = c;
    this.feed(0, chunk);
  }

  flush(c: StageController<O>): void {
    this.out = c;
    this.flushFrom(0);
  }

  // As the running stage's controller:
  enqueue(chunk: unknown): void {
    this.enqueueFrom(this.at, chunk);
  }

  error(reason?: unknown): void {
    this.fail(reason);
  }

  terminate(): void {
    this.terminateAt(this.at);
  }

  /** What stage `index` emits: the next stage's input, or the output after the last. */
  enqueueFrom(index: number, chunk: unknown): void {
    if (!this.isOver(index)) this.feed(index + 1, chunk);
  }

  private isOver(index: number): boolean {
    return (this.overMask & (1 << index)) !== 0;
  }

  private feed(index: number, chunk: unknown): void {
    if (index === this.stages.length) {
      this.out?.enqueue(chunk as O);
      return;
    }
    if (this.isOver(index)) return;
    const caller = this.at;
    this.at = index;
    this.stages[index]!.transform(chunk, this);
    this.at = caller;
  }

  fail(reason: unknown): void {
    this.overMask = (1 << this.stages.length) - 1;
    this.out?.error(reason);
  }

  /** Stage `index` closed its output: the stages after it see their end, the ones up to it nothing more. */
  terminateAt(index: number): void {
    if (this.isOver(index)) return;
    this.overMask |= (1 << (index + 1)) - 1;
    this.flushFrom(index + 1);
    this.out?.terminate();
  }

  private flushFrom(from: number): void {
    const caller = this.at;
    for (let i = from; i < this.stages.length; i++) {
      if (this.isOver(i)) continue;
      this.at = i;
      this.stages[i]!.flush?.(this);
      this.overMask |= 1 << i;
    }
    this.at = caller;
  }
}

/**
 * `source` run through `stage` as one ReadableStream of batches, pulled as its reader asks (backpressure reaches
 * the source). Cancelling it cancels the source; a stage that errors or terminates cancels the source too, as a
 * pipe would; a source that fails errors the stream with its reason.
 */
export function stagedStream<I, O>(source: BatchSource<I>, stage: SyncTransformer<I, O> | null): ReadableStream<O[]> {
  return new ReadableStream<O[]>(new StagedSource<I, O>(source, stage), { highWaterMark: 0 });
}

/**
 * What turns each output batch into the stream's own chunks (the SSE body: a batch of rendered text → one chunk of
 * bytes), writing to the stream's controller itself — also on its own, between batches (keep-alives).
 */
export interface BatchSink<O, B> {
  start(c: ReadableStreamDefaultController<B>): void;
  transform(batch: O[]): void;
  /** The source ended and every stage flushed. */
  flush(): void;
  /** The stream ended early: its reader went away, its source failed or a stage errored. */
  cancel(reason?: unknown): void;
}

/** As stagedStream, with each output batch handed to `sink`, which writes the stream's chunks (an HTTP body). */
export function stagedBody<I, O, B>(source: BatchSource<I>, stage: SyncTransformer<I, O> | null, sink: BatchSink<O, B>): ReadableStream<B> {
  return new ReadableStream<B>(new StagedSource<I, O>(source, stage, sink as BatchSink<O, unknown>) as unknown as UnderlyingDefaultSource<B>, { highWaterMark: 0 });
}

/** The stream's underlying source and the stage's controller at once (a class: no closures per stream). */
class StagedSource<I, O> implements UnderlyingDefaultSource<O[]>, StageController<O> {
  private controller!: CountingController;
  private out: O[] = none();
  /** Inside a call into the stage: its output is gathered into one batch. */
  private inCall = false;
  private over = false;

  constructor(
    private readonly source: BatchSource<I>,
    private readonly stage: SyncTransformer<I, O> | null,
    /** Writes each output batch as the stream's chunks; none: the batches are the chunks. */
    private readonly sink: BatchSink<O, unknown> | null = null,
  ) {}

  start(c: ReadableStreamDefaultController<unknown>): void {
    this.controller = new CountingController(c);
    // The sink first: the SSE body opens with its keep-alive, before anything a stage sends at its start.
    this.sink?.start(this.controller as unknown as ReadableStreamDefaultController<unknown>);
    const stage = this.stage;
    if (!stage?.start) return;
    this.inCall = true;
    try {
      stage.start(this);
    } finally {
      this.inCall = false;
    }
    this.send();
  }

  async pull(): Promise<void> {
    // A pull that hands nothing on would leave the waiting read unanswered: read until something went out.
    const before = this.controller.chunks;
    while (!this.over && this.controller.chunks === before) {
      let batch: I[] | null;
      try {
        batch = await this.source.next();
      } catch (e) {
        if (!this.over) this.fail(e);
        return;
      }
      if (this.over) return;
      if (batch === null) return this.end();
      if (!this.stage) {
        if (batch.length > 0) this.hand(batch as unknown as O[]);
        continue;
      }
      this.inCall = true;
      try {
        for (let i = 0; i < batch.length && !this.over; i++) this.stage.transform(batch[i]!, this);
      } catch (e) {
        this.inCall = false;
        this.error(e);
        return;
      }
      this.inCall = false;
      this.send();
    }
  }

  cancel(reason?: unknown): Promise<void> {
    // The reader went away: a stage's own timer must not write into a closed stream.
    this.over = true;
    this.out = none();
    this.sink?.cancel(reason);
    return this.source.cancel(reason);
  }

  enqueue(chunk: O): void {
    if (this.over) return;
    this.out = pushed(this.out, chunk);
    if (!this.inCall) this.send();
  }

  error(reason?: unknown): void {
    if (this.over) return;
    this.fail(reason);
    this.source.cancel(reason).catch(() => {});
  }

  /** The stream ends in `reason`: nothing more goes out, the sink is told, the reader gets the error. */
  private fail(reason: unknown): void {
    this.over = true;
    this.out = none();
    this.sink?.cancel(reason);
    this.controller.error(reason);
  }

  terminate(): void {
    if (this.over) return;
    this.send();
    this.over = true;
    this.sink?.flush();
    this.controller.close();
    this.source.cancel().catch(() => {});
  }

  /** The source ended: the stage's flush, then the stream's end. */
  private end(): void {
    const stage = this.stage;
    if (stage?.flush) {
      this.inCall = true;
      try {
        stage.flush(this);
      } catch (e) {
        this.inCall = false;
        if (!this.over) this.fail(e);
        return;
      } finally {
        this.inCall = false;
      }
      this.send();
    }
    if (this.over) return;
    this.over = true;
    this.sink?.flush();
    this.controller.close();
  }

  private send(): void {
    if (this.out.length === 0) return;
    const batch = this.out;
    this.out = none();
    this.hand(batch);
  }

  private hand(batch: O[]): void {
    try {
      if (this.sink) this.sink.transform(batch);
      else this.controller.enqueue(batch);
    } catch {
      // The stream is gone (cancelled): nobody reads any more.
      this.over = true;
    }
  }
}

/** The stream's controller, counting the chunks it was given: a pull ends once one went out. */
class CountingController {
  chunks = 0;

  constructor(private readonly c: ReadableStreamDefaultController<unknown>) {}

  enqueue(chunk: unknown): void {
    this.c.enqueue(chunk);
    this.chunks++;
  }

  error(reason?: unknown): void {
    this.c.error(reason);
  }

  close(): void {
    this.c.close();
  }

  get desiredSize(): number | null {
    return this.c.desiredSize;
  }
}

/** A reader of a stream of batches as a BatchSource. */
export function readerSource<T>(stream: ReadableStream<T[]>): BatchSource<T> {
  return new ReaderSource(stream.getReader());
}

class ReaderSource<T> implements BatchSource<T> {
  constructor(private readonly reader: ReadableStreamDefaultReader<T[]>) {}

  async next(): Promise<T[] | null> {
    const r = await this.reader.read();
    return r.done ? null : r.value;
  }

  cancel(reason?: unknown): Promise<void> {
    return this.reader.cancel(reason);
  }
}
