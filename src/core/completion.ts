// One completion attempt (core-upstream §5.6, §5.7, §7.10): PoW, the completion request and its head check
// (round.ts), then ONE stream of frame batches over the completion round and every continue round. The stream is
// pulled (backpressure reaches core), cancelling it aborts the current core request, and core silence beyond the
// idle timeout ends it with a typed `upstream_timeout` failure frame.
import type { CoreClient } from "./client";
import { CoreError, type CoreErrorKind } from "./errors";
import { COMPLETION_TARGET, PASS_THROUGH_FIELDS, PATHS } from "./wire";
import type { SseFrame } from "./sse";
import { RoundTracker } from "./round-tracker";
import { none } from "../util/none";
import { beginRead, followCaller, openRound, readAtOnce, readEnded, readFailed, stop, stopWatch, type CallerLink, type CompletionRequest, type Ctx, type ReadResult, type Round } from "./round";

export { type CompletionRequest, type RoundInfo, type RoundSink } from "./round";

/**
 * A frame of the joined answer: core's own, decoded once (with its JSON parsed at most once), or — always last —
 * the typed end of an answer that broke after it had started: `failure` is the kind, `data` a log-safe message.
 */
export type CoreFrame = SseFrame & { failure?: CoreErrorKind };

export interface CoreCompletion {
  sessionId: string;
  /**
   * Every round's frames in order, decoded once; each round starts with its `ready`. One chunk is what one read
   * from core completed (a burst stays one batch, so the stages treat it as one). A failure after the start is
   * the last frame (typed), never bytes to re-parse; only an abort (the caller's signal, or cancelling this
   * stream) errors it. Cancelling it aborts core's request.
   */
  frames: ReadableStream<CoreFrame[]>;
  /** Continue calls made so far. */
  continues(): number;
  /** The response message id seen so far (0 before `ready`). */
  responseMessageId(): number;
}

const POW_REUSE_MARGIN_S = 10;
/** Frames handed on at once from one read; a larger burst is split, with the event loop turning in between. */
const BURST_SLICE = 1024;

export function completionBody(req: CompletionRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    chat_session_id: req.sessionId,
    model_type: req.modelType,
    // One session per request: the first turn of a session has no parent (§7.14).
    parent_message_id: null,
    prompt: req.prompt,
    ref_file_ids: req.refFileIds,
    thinking_enabled: req.thinking,
    search_enabled: req.search,
  };
  for (const k of PASS_THROUGH_FIELDS) if (req.passThrough?.[k] !== undefined) body[k] = req.passThrough[k];
  return body;
}

/** Solves the PoW, sends the completion and checks its head; resolves once core has accepted it. */
export async function openCompletion(client: CoreClient, req: CompletionRequest): Promise<CoreCompletion> {
  const body = completionBody(req);
  // The prompt goes in the first body only (continue rounds name the session and message): an open stream must
  // not keep it — an agent's prompt is often hundreds of KB (issue 17, memory per open stream).
  const ctx: Ctx = { client, req: { ...req, prompt: "", pow: undefined, beforeSend: undefined }, life: new AbortController(), stopped: null, idleMs: req.idleTimeoutMs ?? client.wire.stream_idle_timeout_ms };
  const caller = followCaller(ctx, req.signal);
  try {
    const pow = req.pow ?? (await client.solvePow(req.token, COMPLETION_TARGET, { signal: ctx.life.signal, proxy: req.proxy }));
    await req.beforeSend?.(ctx.life.signal);
    const first = await openRound(ctx, PATHS.completion, body, pow.header, "completion", 0);
    return new JoinedRounds(ctx, pow.header, pow.challenge.expire_at, first, caller);
  } catch (e) {
    caller?.unlink();
    throw e;
  }
}

/**
 * The rounds joined into one stream of frame batches: when a round ends, the tracker (which saw every frame the
 * stream handed on) decides whether core must be asked to continue, and the next round's head follows. One
 * object is the completion, the stream's underlying source and its read loop: an open stream keeps no closures
 * of its own here (issue 35).
 */
class JoinedRounds implements CoreCompletion, FrameSource, UnderlyingDefaultSource<CoreFrame[]> {
  readonly sessionId: string;
  /** Built when first asked for: a reader that takes the frames with `next` (the turn's) needs no stream. */
  private stream: ReadableStream<CoreFrame[]> | null = null;
  private readonly tracker = new RoundTracker();
  private roundNo = 0;
  private queued: SseFrame[];
  /** Frames of `queued` already handed on (a burst goes in slices; the rest is not copied for each one). */
  private taken = 0;
  private over = false;
  private finished = false;
  private sliced = false;
  /** The last batch (or the failure frame) was handed on, or the reader cancelled: `next` gives null. */
  private done = false;
  /** What `next` hands on is made by this step from the frames (`through`). */
  private step: FrameStep<unknown> | null = null;
  /** The step saw the frames' end (or failed, or the reader cancelled): `next` gives null. */
  private stepEnded = false;
  /** The frames were asked for: too late for a step. */
  private started = false;

  constructor(
    private readonly ctx: Ctx,
    /** The completion's PoW answer (its header) and when its challenge expires: continue rounds re-use it (§5.7). */
    private powHeader: string,
    private powExpiresAt: number,
    private round: Round,
    private readonly caller: CallerLink | null,
  ) {
    this.sessionId = ctx.req.sessionId;
    this.queued = round.headFrames;
    // The round keeps no second reference to its head's frames (issue 17, memory per open stream).
    round.headFrames = none();
  }

  get frames(): ReadableStream<CoreFrame[]> {
    if (this.step) throw new Error("the completion's frames are read through a step");
    return (this.stream ??= new ReadableStream<CoreFrame[]>(this, { highWaterMark: 0 }));
  }

  continues(): number {
    return this.roundNo;
  }

  responseMessageId(): number {
    return this.tracker.responseMessageId;
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    stopWatch(this.round);
    this.caller?.unlink();
  }

  /** The next round's head once the current one ended, or null when the answer is over. */
  private async nextRound(): Promise<Round | null> {
    const { ctx, tracker } = this;
    const { client, req } = ctx;
    this.round.sink?.end();
    if (!tracker.shouldContinue(this.roundNo, req.maxContinueRounds ?? client.wire.max_continue_rounds, true)) return null;
    this.roundNo++;
    tracker.nextRound();
    // The completion's answer may be re-used while it has more than 10 s left (§5.7, §6.5).
    const now = req.nowSeconds?.() ?? Date.now() / 1000;
    if (this.powExpiresAt - now <= POW_REUSE_MARGIN_S) {
      const pow = await client.solvePow(req.token, COMPLETION_TARGET, { signal: ctx.life.signal, proxy: req.proxy });
      this.powHeader = pow.header;
      this.powExpiresAt = pow.challenge.expire_at;
    }
    const body = { chat_session_id: req.sessionId, message_id: tracker.responseMessageId, fallback_to_resume: true };
    return openRound(ctx, PATHS.continue, body, this.powHeader, "continue", this.roundNo);
  }

  /** `frames` after the ones queued (the queue is the shared empty list while nothing waits). */
  private queue(frames: SseFrame[]): void {
    if (frames.length === 0) return;
    if (this.queued.length === 0) this.queued = frames;
    else for (const f of frames) this.queued.push(f);
  }

  /** The next batch: what one read completed, or a slice of a burst. */
  private take(): SseFrame[] {
    let batch: SseFrame[];
    const { queued, taken } = this;
    if (queued.length - taken > BURST_SLICE) {
      batch = queued.slice(taken, taken + BURST_SLICE);
      this.taken += BURST_SLICE;
    } else {
      batch = taken === 0 ? queued : queued.slice(taken);
      this.queued = none();
      this.taken = 0;
    }
    this.sliced = this.taken > 0;
    for (const f of batch) this.tracker.observe(f);
    return batch;
  }

  /**
   * The joined frames through `step` from now on: `next` gives what the step makes of them (never an empty batch),
   * as a reader applying the step to each batch would, in this one frame (issue 35: an open stream's reader of the
   * frames was one more suspended async frame). A step that throws cancels the completion and its error is thrown.
   * Only before the frames were read, and never with the `frames` stream.
   */
  through<T>(step: FrameStep<T>): FrameSource<T> {
    if (this.step || this.stream || this.started) throw new Error("the completion's frames are already being read");
    this.step = step as FrameStep<unknown>;
    return this as unknown as FrameSource<T>;
  }

  /**
   * The next batch, null once the answer is over: reads core until frames are queued. The tracker sees the
   * frames as they are handed on, and a round's end is decided only once all are. A core failure after the start is the typed last frame (D4.5);
   * only an abort (the caller's signal, or cancelling) throws, with its reason: a reader left waiting forever would
   * hold the turn, and with it the account slot (issue 15). With a step (`through`), its output instead.
   */
  async next(): Promise<CoreFrame[] | null> {
    this.started = true;
    for (;;) {
      if (this.stepEnded) return null;
      let batch: CoreFrame[] | null = null;
      if (!this.done) {
        try {
          // A burst is handed on in slices, with a turn of the event loop between them, so the client's first
          // bytes are written while the rest is still being worked on (issue 17: first byte ≤ 10 ms).
          if (this.sliced) await new Promise<void>((resolve) => setImmediate(resolve));
          // fill's loop, inlined: an open stream waits in one suspended frame here, not two (issue 35).
          for (;;) {
            if (this.queued.length - this.taken > 0) {
              batch = this.take();
              break;
            }
            if (this.over) break;
            const round = this.round;
            if (!round.ended) {
              const pendingRead = round.pendingRead;
              round.pendingRead = undefined;
              let r: ReadResult;
              if (pendingRead) r = await pendingRead;
              else {
                // readIdle's steps, inlined: the read is awaited here, in this frame only — or not at all when its
                // answer is there already (readAtOnce).
                const read = beginRead(this.ctx, round);
                const now = readAtOnce(this.ctx, round, read);
                if (now) r = now;
                else {
                  try {
                    r = await read;
                  } catch (e) {
                    throw readFailed(this.ctx, round, e);
                  }
                  r = readEnded(this.ctx, round, r);
                }
              }
              if (!r.done) {
                round.sink?.chunk(r.value);
                this.queue(round.decoder.push(r.value));
                continue;
              }
              round.ended = true;
            }
            if (!round.flushed) {
              // The round's last block may lack its blank line: core ends rounds by closing the body.
              round.flushed = true;
              this.queue(round.decoder.end());
              continue;
            }
            const next = await this.nextRound();
            if (!next) {
              this.over = true;
              continue;
            }
            this.queue(next.headFrames);
            next.headFrames = none();
            this.round = next;
          }
          if (batch === null) {
            this.done = true;
            this.finish();
          }
        } catch (e) {
          this.done = true;
          this.round.sink?.end();
          this.finish();
          const ctx = this.ctx;
          if (ctx.stopped) throw ctx.stopped.reason ?? e;
          const err = e instanceof CoreError ? e : new CoreError("upstream_error", `core stream failed: ${(e as Error)?.message ?? e}`);
          batch = [{ event: "failure", data: err.message || "core stream failed", failure: err.kind }];
        }
      }
      const step = this.step;
      if (!step) return batch;
      let out: unknown[];
      try {
        if (batch === null) {
          this.stepEnded = true;
          out = step.end();
        } else out = step.push(batch);
      } catch (e) {
        this.stepEnded = true;
        this.cancel(e).catch(() => {});
        throw e;
      }
      if (out.length > 0) return out as CoreFrame[];
    }
  }

  async pull(controller: ReadableStreamDefaultController<CoreFrame[]>): Promise<void> {
    let batch: CoreFrame[] | null;
    try {
      batch = await this.next();
    } catch (e) {
      return settle(() => controller.error(e));
    }
    if (batch) return settle(() => controller.enqueue(batch));
    settle(() => controller.close());
  }

  async cancel(reason?: unknown): Promise<void> {
    this.done = true;
    this.stepEnded = true;
    stop(this.ctx, reason);
    this.round.reader.cancel(reason).catch(() => {});
    this.round.sink?.end();
    this.finish();
  }
}

/**
 * The joined frames read without a stream (the turn's detector step reads them this way): `next` gives what a read
 * of `frames` would, null at the end; cancel aborts core's request. Only a completion from openCompletion is one.
 */
export interface FrameSource<T = CoreFrame> {
  next(): Promise<T[] | null>;
  cancel(reason?: unknown): Promise<void>;
}

export function asFrameSource(c: unknown): FrameSource | null {
  return c instanceof JoinedRounds ? c : null;
}

/** What a reader makes of each batch of frames, and at their end (the turn's detector step: core-to-turn.ts). */
export interface FrameStep<T> {
  push(frames: CoreFrame[]): T[];
  end(): T[];
}

/**
 * `frames` read through `step` in the completion's own read (JoinedRounds.through), or null when `frames` is no
 * completion from openCompletion (the caller applies the step itself).
 */
export function framesThrough<T>(frames: unknown, step: FrameStep<T>): FrameSource<T> | null {
  return frames instanceof JoinedRounds ? frames.through(step) : null;
}

/** A controller call after the stream was cancelled mid-read: nobody reads any more, nothing to tell. */
function settle(call: () => void): void {
  try {
    call();
  } catch {}
}
