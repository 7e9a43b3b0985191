// Synchronous stream stages chained by direct calls. The design draws the surface's end of the pipeline as a
// chain of stages (history tap, request facts, delta coalescing, the renderer); as separate TransformStreams
// each costs an open stream about twenty objects and a pipe, and each event a trip through the stream machinery
// (issue 17, bench/stream-layers.ts). Each stage stays a Transformer of its own, tested on its own (as a stream:
// tests/helpers/stages.ts); chained, a stage's `enqueue` is a direct call into the next stage's `transform`.
// chainStages is what the SSE body and the non-stream collector run; fuse() wraps it in one TransformStream.
//
// Only synchronous stages fuse (a transform that returns a promise would need the next stage to wait): the
// JSON-output stage, which may call core again, stays a TransformStream of its own.

/** What a fused stage may do with its output: a subset of TransformStreamDefaultController. */
export interface StageController<O> {
  enqueue(chunk: O): void;
  error(reason?: unknown): void;
  terminate(): void;
}

/** A stage as a plain object: the Transformer of the Streams standard, restricted to synchronous calls. */
export interface SyncTransformer<I, O> {
  start?(c: StageController<O>): void;
  transform(chunk: I, c: StageController<O>): void;
  flush?(c: StageController<O>): void;
}

/** Stages chained by direct calls, feeding `out`: what fuse() runs inside its one TransformStream. */
export interface StageChain<I> {
  push(chunk: I): void;
  /** Flushes every stage, first stage first. */
  end(): void;
}

/**
 * Starts run last stage first (a stage is ready before anything reaches it, as in a piped chain, and a
 * renderer's opening frame comes before any event); flushes run first stage first, so what a stage releases at
 * the end still goes through the stages after it.
 */
export function chainStages<I, O>(stages: SyncTransformer<any, any>[], out: StageController<O>): StageChain<I> {
  const controllers: StageController<unknown>[] = new Array(stages.length);
  for (let i = stages.length - 1; i >= 0; i--) controllers[i] = new Link(stages[i + 1], controllers[i + 1], out as StageController<unknown>);
  for (let i = stages.length - 1; i >= 0; i--) stages[i]!.start?.(controllers[i]!);
  if (stages.length === 0) return { push: (chunk) => out.enqueue(chunk as unknown as O), end: () => {} };
  return {
    push: (chunk) => stages[0]!.transform(chunk, controllers[0]!),
    end() {
      for (let i = 0; i < stages.length; i++) stages[i]!.flush?.(controllers[i]!);
    },
  };
}

/**
 * A stage's controller: output goes into the next stage, or to `out` after the last. A class, not three
 * closures per stage: an open stream keeps its chain for as long as it lives (issue 17, memory per stream).
 */
class Link implements StageController<unknown> {
  constructor(
    private readonly next: SyncTransformer<unknown, unknown> | undefined,
    private readonly nextController: StageController<unknown> | undefined,
    private readonly out: StageController<unknown>,
  ) {}

  enqueue(chunk: unknown): void {
    if (this.next) this.next.transform(chunk, this.nextController!);
    else this.out.enqueue(chunk);
  }

  error(reason?: unknown): void {
    this.out.error(reason);
  }

  terminate(): void {
    this.out.terminate();
  }
}

/** `a → b → …` as one TransformStream (see chainStages for the order of starts and flushes). */
export function fuse<I, O>(...stages: SyncTransformer<any, any>[]): TransformStream<I, O> {
  let chain: StageChain<I>;
  return new TransformStream<I, O>({
    start(c) {
      chain = chainStages<I, O>(stages, c);
    },
    transform(chunk) {
      chain.push(chunk);
    },
    flush() {
      chain.end();
    },
  });
}
