// The running turn the runner hands to a surface, with its stream built late (issue 35, memory per open stream):
// the stages added before anyone reads the events (the turn's taps, the surface's coalescer and renderer) run
// inside the one stream the runner's reader feeds, instead of one TransformStream each. Reading `events` builds
// that stream; stages added after that are piped as before. Replacing `events` (a surface piping it through a
// TransformStream of its own) works as with a plain RunningTurn.
import { batchStage, type SyncTransformer } from "../pipeline/stage";
import { composeStages, stagedBody, stagedStream, type BatchSink, type BatchSource } from "../pipeline/staged-stream";
import type { TurnEvent, TurnResult } from "../pipeline/types";
import { collectFrom } from "../pipeline/collect-turn";
import type { RunningTurn } from "./types";

export class StagedTurn implements RunningTurn {
  private stream: ReadableStream<any[]> | null = null;
  private stages: SyncTransformer<any, any>[] = [];
  /** Read to its end by `collect`: there are no events left for a stream. */
  private collected = false;
  finalPrompt?: string;

  constructor(
    private readonly source: BatchSource<TurnEvent>,
    readonly sessionId: string,
    readonly account: string | null,
    readonly promptTokens: number,
    finalPrompt: string | undefined,
  ) {
    this.finalPrompt = finalPrompt;
  }

  get events(): ReadableStream<TurnEvent[]> {
    if (this.collected) throw new Error("the turn's events were already collected");
    if (!this.stream) {
      const stages = this.stages;
      this.stages = [];
      this.stream = stagedStream(this.source, stages.length ? composeStages(stages) : null);
    }
    return this.stream;
  }

  set events(s: ReadableStream<TurnEvent[]>) {
    this.stream = s;
  }

  /**
   * The events through the stages added and `stages`, each output batch written by `sink` (an HTTP body: the SSE
   * writer), as one stream; null when the events were already read (or replaced). The turn's events are this
   * stream from then on.
   */
  bodyThrough<B>(stages: SyncTransformer<any, any>[], sink: BatchSink<any, B>): ReadableStream<B> | null {
    if (this.stream || this.collected) return null;
    const all = [...this.stages, ...stages];
    this.stages = [];
    const body = stagedBody<TurnEvent, unknown, B>(this.source, all.length ? composeStages(all) : null, sink);
    this.stream = body as unknown as ReadableStream<any[]>;
    return body;
  }

  /**
   * The turn read to its end into one result (a non-stream answer) straight from the runner's reader through the
   * stages added, with no stream; null when the events were already read (or replaced): collect those instead.
   */
  collect(): Promise<TurnResult> | null {
    if (this.stream || this.collected) return null;
    const stages = this.stages;
    this.stages = [];
    this.collected = true;
    return collectFrom(this.source, stages.length ? composeStages(stages) : null);
  }

  /** Adds stages after the ones already added: inside the turn's stream while nobody read it yet. */
  through(stages: SyncTransformer<any, any>[]): void {
    if (this.collected) throw new Error("the turn's events were already collected");
    if (this.stream) this.stream = this.stream.pipeThrough(batchStage(composeStages(stages)));
    else for (const s of stages) this.stages.push(s);
  }
}

/** `running`'s events through `stages` (in order, after what it has): fused when the turn allows it. */
export function throughStages(running: RunningTurn, stages: SyncTransformer<any, any>[]): void {
  if (stages.length === 0) return;
  if (running instanceof StagedTurn) running.through(stages);
  else running.events = running.events.pipeThrough(batchStage(composeStages(stages)));
}
