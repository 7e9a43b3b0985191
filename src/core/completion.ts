// One completion attempt (core-upstream §5.6, §5.7, §7.10): PoW, the completion request and its head check
// (round.ts), then ONE stream of frame batches over the completion round and every continue round. The stream is
// pulled (backpressure reaches core), cancelling it aborts the current core request, and core silence beyond the
// idle timeout ends it with a typed `upstream_timeout` failure frame.
import type { CoreClient, SolvedPow } from "./client";
import { CoreError, type CoreErrorKind } from "./errors";
import { COMPLETION_TARGET, PASS_THROUGH_FIELDS, PATHS } from "./wire";
import type { SseFrame } from "./sse";
import { RoundTracker } from "./round-tracker";
import { followCaller, openRound, readIdle, stop, stopWatch, type CompletionRequest, type Ctx, type Round } from "./round";

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
  const unlink = followCaller(ctx, req.signal);
  try {
    const pow = req.pow ?? (await client.solvePow(req.token, COMPLETION_TARGET, { signal: ctx.life.signal, proxy: req.proxy }));
    await req.beforeSend?.(ctx.life.signal);
    const first = await openRound(ctx, PATHS.completion, body, pow, "completion", 0);
    return joinRounds(ctx, pow, first, unlink);
  } catch (e) {
    unlink();
    throw e;
  }
}

/**
 * The rounds joined into one stream of frame batches: when a round ends, the tracker (which saw every frame the
 * stream handed on) decides whether core must be asked to continue, and the next round's head follows.
 */
function joinRounds(ctx: Ctx, firstPow: SolvedPow, first: Round, unlink: () => void): CoreCompletion {
  const { client, req } = ctx;
  const maxRounds = req.maxContinueRounds ?? client.wire.max_continue_rounds;
  const now = req.nowSeconds ?? (() => Date.now() / 1000);
  const tracker = new RoundTracker();
  let round = first;
  let roundNo = 0;
  let pow = firstPow;
  let frames: SseFrame[] = first.headFrames;
  /** Frames of `frames` already handed on (a burst goes in slices; the rest is not copied for each one). */
  let taken = 0;
  // The round keeps no second reference to its head's frames (issue 17, memory per open stream).
  first.headFrames = [];
  let over = false;
  let finished = false;
  let sliced = false;

  const finish = () => {
    if (finished) return;
    finished = true;
    stopWatch(round.idle);
    unlink();
  };

  /** The next round's head once the current one ended, or null when the answer is over. */
  const nextRound = async (): Promise<Round | null> => {
    round.sink?.end();
    if (!tracker.shouldContinue(roundNo, maxRounds, true)) return null;
    roundNo++;
    tracker.nextRound();
    // The completion's answer may be re-used while it has more than 10 s left (§5.7, §6.5).
    if (pow.challenge.expire_at - now() <= POW_REUSE_MARGIN_S) pow = await client.solvePow(req.token, COMPLETION_TARGET, { signal: ctx.life.signal, proxy: req.proxy });
    const body = { chat_session_id: req.sessionId, message_id: tracker.responseMessageId, fallback_to_resume: true };
    return openRound(ctx, PATHS.continue, body, pow, "continue", roundNo);
  };

  /**
   * Reads core until frames are queued; false once the answer is over and all handed on. The tracker sees the
   * frames as they are handed on, and the round's end is decided only once all are.
   */
  const fill = async (): Promise<boolean> => {
    for (;;) {
      if (frames.length - taken > 0) return true;
      if (over) return false;
      if (!round.ended) {
        const pendingRead = round.pendingRead;
        round.pendingRead = undefined;
        const r = await (pendingRead ?? readIdle(ctx, round));
        if (!r.done) {
          round.sink?.chunk(r.value);
          for (const f of round.decoder.push(r.value)) frames.push(f);
          continue;
        }
        round.ended = true;
      }
      if (!round.flushed) {
        // The round's last block may lack its blank line: core ends rounds by closing the body.
        round.flushed = true;
        for (const f of round.decoder.end()) frames.push(f);
        continue;
      }
      const next = await nextRound();
      if (!next) {
        over = true;
        continue;
      }
      for (const f of next.headFrames) frames.push(f);
      next.headFrames = [];
      round = next;
    }
  };

  /** The next batch: what one read completed, or a slice of a burst. */
  const take = (): SseFrame[] => {
    let batch: SseFrame[];
    if (frames.length - taken > BURST_SLICE) {
      batch = frames.slice(taken, taken + BURST_SLICE);
      taken += BURST_SLICE;
    } else {
      batch = taken === 0 ? frames : frames.slice(taken);
      frames = [];
      taken = 0;
    }
    sliced = taken > 0;
    for (const f of batch) tracker.observe(f);
    return batch;
  };

  const stream = new ReadableStream<CoreFrame[]>(
    {
      async pull(controller) {
        let batch: CoreFrame[] | null;
        try {
          // A burst is handed on in slices, with a turn of the event loop between them, so the client's first
          // bytes are written while the rest is still being worked on (issue 17: first byte ≤ 10 ms).
          if (sliced) await new Promise<void>((resolve) => setImmediate(resolve));
          batch = (await fill()) ? take() : null;
        } catch (e) {
          round.sink?.end();
          finish();
          // An abort errors the stream with its reason: a reader left waiting forever would hold the turn, and
          // with it the account slot (issue 15). A core failure is the typed last frame (D4.5).
          if (ctx.stopped) return settle(() => controller.error(ctx.stopped!.reason ?? e));
          const err = e instanceof CoreError ? e : new CoreError("upstream_error", `core stream failed: ${(e as Error)?.message ?? e}`);
          return settle(() => {
            controller.enqueue([{ event: "failure", data: err.message || "core stream failed", failure: err.kind }]);
            controller.close();
          });
        }
        if (batch) return settle(() => controller.enqueue(batch));
        finish();
        settle(() => controller.close());
      },
      cancel(reason) {
        stop(ctx, reason);
        round.reader.cancel(reason).catch(() => {});
        round.sink?.end();
        finish();
      },
    },
    { highWaterMark: 0 },
  );
  return {
    sessionId: req.sessionId,
    frames: stream,
    continues: () => roundNo,
    responseMessageId: () => tracker.responseMessageId,
  };
}

/** A controller call after the stream was cancelled mid-read: nobody reads any more, nothing to tell. */
function settle(call: () => void): void {
  try {
    call();
  } catch {}
}
