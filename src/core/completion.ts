// One completion attempt (core-upstream §5.6, §5.7, §7.10): PoW, the completion request, a head check that
// turns HTTP errors, JSON envelopes and early error lines into typed CoreErrors, then ONE byte stream over the
// completion round and every continue round. The stream is pulled (backpressure reaches core), cancelling it
// aborts the current core request, and core silence beyond the idle timeout aborts the round and errors the
// stream with `upstream_timeout`.
import { classifyFailure, classifyStreamError } from "./classify";
import type { CoreClient, SolvedPow } from "./client";
import { CoreError } from "./errors";
import type { ProxySpec } from "./http";
import { COMPLETION_TARGET, PASS_THROUGH_FIELDS, PATHS } from "./wire";
import { frameJson, SseDecoder, type SseFrame } from "./sse";
import { RoundTracker } from "./round-tracker";
import type { CoreErrorKind } from "./errors";

export interface CompletionRequest {
  token: string;
  sessionId: string;
  modelType: string;
  prompt: string;
  refFileIds: string[];
  thinking: boolean;
  search: boolean;
  /** The client's sampling fields; only PASS_THROUGH_FIELDS are copied (§5.6). */
  passThrough?: Record<string, unknown>;
  signal?: AbortSignal;
  proxy?: ProxySpec;
  /** Overrides upstream.stream_idle_timeout_ms (tests). */
  idleTimeoutMs?: number;
  /** Overrides HEAD_GRACE_MS (tests). */
  headGraceMs?: number;
  /** Overrides upstream.max_continue_rounds. */
  maxContinueRounds?: number;
  /** Unix seconds, for the PoW re-use check (§6.5); tests inject a clock. */
  nowSeconds?: () => number;
  /** Records every round's raw body (dev captures, D13). */
  onRound?: (round: RoundInfo) => RoundSink | undefined;
  /** A PoW already solved for this completion (side by side with the session's creation); else one is solved. */
  pow?: SolvedPow;
  /** Awaited after the PoW, right before the completion is sent: core sees the start when this resolves. */
  beforeSend?: (signal: AbortSignal) => Promise<void>;
}

export interface RoundInfo {
  label: "completion" | "continue";
  round: number;
  path: string;
  requestBody: string;
  status: number;
  startedAt: number;
}

export interface RoundSink {
  chunk(bytes: Uint8Array): void;
  end(): void;
}

/**
 * A frame of the joined answer: core's own, decoded once (with its JSON parsed at most once), or — always last —
 * the typed end of an answer that broke after it had started: `failure` is the kind, `data` a log-safe message.
 */
export type CoreFrame = SseFrame & { failure?: CoreErrorKind };

export interface CoreCompletion {
  sessionId: string;
  /**
   * Every round's frames in order, decoded once; each round starts with its `ready`. One item is what one read
   * from core completed (a burst stays one batch, so the stages can treat it as one). A failure after the start
   * is the last frame (typed), never bytes to re-parse; only an abort errors the stream. Read either `frames`
   * or `body`, not both.
   */
  frames: ReadableStream<CoreFrame[]>;
  /**
   * The same frame view as a pull function (the turn's attempt reads it directly: no stream of its own): the
   * next batch, null once the answer is over; a core failure is the typed last frame, an abort throws.
   */
  nextFrames(): Promise<CoreFrame[] | null>;
  /** Ends the completion: aborts core's request and, with it, whatever read is pending. */
  cancel(reason?: unknown): void;
  /** Every round's bytes, joined with SSE block boundaries preserved (captures, raw tests); errors on failure. */
  body: ReadableStream<Uint8Array>;
  /** Continue calls made so far. */
  continues(): number;
  /** The response message id seen so far (0 before `ready`). */
  responseMessageId(): number;
}

/** The head check reads at most this much before handing the stream on (§10.7: 8 data lines / 16 KiB). */
const HEAD_BYTES = 16 * 1024;
const HEAD_DATA_LINES = 8;
/**
 * How long the head check waits for core's first content once core answered 200. A core that is silent before
 * its snapshot (a long queue on its side) would otherwise hold the client's status and headers for as long,
 * and clients time out on headers (Gemini CLI: 60 s; issue 16 item 3). An error core writes after this point
 * reaches the client as an in-stream error instead of a retry.
 */
export const HEAD_GRACE_MS = 1000;
const GRACE = Symbol("head grace");
const POW_REUSE_MARGIN_S = 10;
/** Frames handed on at once from one read; a larger burst is split, with the event loop turning in between. */
const BURST_SLICE = 1024;
const LF = 10;

interface Round {
  reader: ReadableStreamDefaultReader<Uint8Array>;
  head: Uint8Array[];
  /** The head's frames: the head check decoded them, nobody decodes them again. */
  headFrames: SseFrame[];
  decoder: SseDecoder;
  /** EOF was reached during the head check. */
  ended: boolean;
  /** The decoder's last block was flushed. */
  flushed: boolean;
  sink?: RoundSink;
  idle: IdleWatch;
  /** A read the head check started and stopped waiting for (HEAD_GRACE_MS): the body takes it over. */
  pendingRead?: Promise<Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>>>;
}

/**
 * The idle timeout (§2) as one timer per round instead of a timer and a Promise.race per read: a read marks its
 * start, and the timer, when it fires, trips only if a read has been pending for the whole timeout. While nobody
 * reads (the client is slow to pull) it does not re-arm, so an abandoned round keeps no timer alive.
 */
interface IdleWatch {
  reading: boolean;
  since: number;
  tripped: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
}

interface Ctx {
  client: CoreClient;
  req: CompletionRequest;
  /**
   * The completion's one controller, every round's request hangs off it: aborted by the caller (its signal, or
   * cancelling the completion) and by the completion itself when a round fails (silence past the idle timeout,
   * a failed head, the head deadline). Rounds follow one another and a round's failure ends the completion, so
   * one controller serves them all (each one more, with its listener, held ≈ 1 KB per open stream; issue 17).
   */
  life: AbortController;
  /** Set when the caller ended the completion (its abort is thrown with this reason); null for a round's own failure. */
  stopped: { reason: unknown } | null;
  idleMs: number;
}

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

/** The caller ends the completion: its reason is kept (thrown to readers) and every round's request is aborted. */
function stop(ctx: Ctx, reason: unknown): void {
  ctx.stopped ??= { reason };
  ctx.life.abort(reason);
}

/** A round failed on its own: its request is aborted, and with it the completion, which that failure ends. */
function abortRound(ctx: Ctx, reason?: unknown): void {
  ctx.life.abort(reason);
}

function followCaller(ctx: Ctx, parent: AbortSignal | undefined): () => void {
  if (!parent) return () => {};
  if (parent.aborted) stop(ctx, parent.reason);
  const on = () => stop(ctx, parent.reason);
  parent.addEventListener("abort", on, { once: true });
  return () => parent.removeEventListener("abort", on);
}

/** One read, bounded by the idle timeout: on silence the round's request is aborted. */
async function readIdle(ctx: Ctx, round: Pick<Round, "reader" | "idle">): Promise<Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>>> {
  const w = round.idle;
  w.reading = true;
  w.since = performance.now();
  if (!w.timer) watch(ctx, round, ctx.idleMs);
  try {
    const r = await round.reader.read();
    if (w.tripped) throw idleError(ctx);
    if (r.done) stopWatch(w);
    return r;
  } catch (e) {
    stopWatch(w);
    if (w.tripped) throw idleError(ctx);
    if (e instanceof CoreError) throw e;
    if (ctx.stopped) throw ctx.stopped.reason ?? e;
    throw new CoreError("upstream_error", `core stream broke: ${(e as Error)?.message ?? e}`);
  } finally {
    w.reading = false;
  }
}

function idleError(ctx: Ctx): CoreError {
  return new CoreError("upstream_timeout", `core sent nothing for ${ctx.idleMs} ms`);
}

function watch(ctx: Ctx, round: Pick<Round, "reader" | "idle">, ms: number): void {
  const w = round.idle;
  w.timer = setTimeout(() => {
    w.timer = undefined;
    if (!w.reading) return;
    const waited = performance.now() - w.since;
    // Timers may fire a hair early; a millisecond is no difference to a timeout of seconds.
    if (waited < ctx.idleMs - 1) return watch(ctx, round, ctx.idleMs - waited);
    w.tripped = true;
    abortRound(ctx, new DOMException("core stream idle", "TimeoutError"));
    round.reader.cancel().catch(() => {});
  }, ms);
}

function stopWatch(w: IdleWatch): void {
  clearTimeout(w.timer);
  w.timer = undefined;
}

function newWatch(): IdleWatch {
  return { reading: false, since: 0, tripped: false, timer: undefined };
}

/** Sends one completion or continue request and checks its head (status, JSON envelope, early error lines). */
async function openRound(ctx: Ctx, path: string, body: Record<string, unknown>, pow: SolvedPow, label: RoundInfo["label"], roundNo: number): Promise<Round> {
  const startedAt = Date.now();
  const requestBody = JSON.stringify(body);
  let res: Response;
  try {
    res = await ctx.client.fetch({
      method: "POST",
      path,
      token: ctx.req.token,
      body: requestBody,
      headers: { "Content-Type": "application/json", [ctx.client.wire.pow_header]: pow.header },
      controller: ctx.life,
      timeoutMs: 0,
      proxy: ctx.req.proxy,
    });
  } catch (e) {
    if (ctx.stopped) throw ctx.stopped.reason ?? e;
    throw e;
  }
  const sink = ctx.req.onRound?.({ label, round: roundNo, path, requestBody, status: res.status, startedAt });
  const decoder = new SseDecoder();
  const round: Round = { reader: null as unknown as Round["reader"], head: [], headFrames: [], decoder, ended: false, flushed: false, sink, idle: newWatch() };
  const fail = async (err: CoreError): Promise<never> => {
    stopWatch(round.idle);
    sink?.end();
    abortRound(ctx);
    throw err;
  };
  if (res.status !== 200 || !res.body) {
    const text = await res.text().catch(() => "");
    sink?.chunk(new TextEncoder().encode(text));
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return fail(new CoreError(classifyFailure(res.status, parsed), `${path}: HTTP ${res.status}`, res.status));
  }
  round.reader = res.body.getReader();
  let bytes = 0;
  let dataLines = 0;
  const graceEnds = performance.now() + (ctx.req.headGraceMs ?? HEAD_GRACE_MS);
  for (;;) {
    let r: Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>>;
    try {
      const read = readIdle(ctx, round);
      const grace = graceAfter(Math.max(0, graceEnds - performance.now()));
      let first: Awaited<typeof read> | typeof GRACE;
      try {
        first = await Promise.race([read, grace.promise]);
      } finally {
        grace.cancel();
      }
      if (first === GRACE) {
        // Core accepted the completion and is silent: the answer starts now; the body continues this read.
        round.pendingRead = read;
        read.catch(() => {}); // the body reports its outcome; an unread failure must not go unhandled meanwhile
        break;
      }
      r = first;
    } catch (e) {
      sink?.end();
      // Abrupt EOF or a network failure before any output: retried in a new session (§10.7); status 200 says
      // the stream had started.
      if (e instanceof CoreError && e.status === undefined) throw new CoreError(e.kind, e.message, 200);
      throw e;
    }
    if (!r.done) {
      round.head.push(r.value);
      sink?.chunk(r.value);
      bytes += r.value.byteLength;
    } else round.ended = true;
    let content = false;
    // At the end of a short body the last line has no line end yet: end() completes it.
    const frames = r.done ? decoder.end() : decoder.push(r.value);
    if (r.done) round.flushed = true;
    for (const f of frames) round.headFrames.push(f);
    for (const f of frames) {
      if (f.event === "raw") {
        // A bare JSON body instead of a stream (§5.6): an envelope, classified by §4.
        const parsed = frameJson(f);
        return fail(new CoreError(classifyFailure(200, parsed), `${path}: ${envelopeText(parsed) || "error envelope instead of a stream"}`, 200));
      }
      if (f.comment || !f.data) continue;
      dataLines++;
      const obj = frameJson(f);
      if (!obj) continue;
      if (obj.type === "error") {
        const kind = classifyStreamError(obj);
        return fail(new CoreError(kind === "upstream_timeout" ? "upstream_error" : kind, `${path}: ${typeof obj.content === "string" && obj.content ? obj.content : "error line"}`, 200));
      }
      if ("error" in obj) return fail(new CoreError("upstream_error", `${path}: ${typeof obj.error === "string" && obj.error ? obj.error : "error line"}`, 200));
      if ("v" in obj || "code" in obj) content = true;
    }
    if (r.done || content || bytes >= HEAD_BYTES || dataLines >= HEAD_DATA_LINES) break;
  }
  return round;
}

/** GRACE after `ms`, unless cancelled first (the usual case: core's content came in time). */
function graceAfter(ms: number): { promise: Promise<typeof GRACE>; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<typeof GRACE>((resolve) => {
    timer = setTimeout(() => resolve(GRACE), ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

function envelopeText(body: unknown): string {
  const b = body as { msg?: unknown; data?: { biz_msg?: unknown } } | null;
  const t = b?.data?.biz_msg || b?.msg;
  return typeof t === "string" ? t : "";
}

/** What must follow `tail` so the next round starts a new SSE block (§7.10). */
function boundaryAfter(tail: number[]): string {
  if (tail.length === 2 && tail[0] === LF && tail[1] === LF) return "";
  return tail[tail.length - 1] === LF ? "\n" : "\n\n";
}

function joinRounds(ctx: Ctx, firstPow: SolvedPow, first: Round, unlink: () => void): CoreCompletion {
  const { client, req } = ctx;
  const maxRounds = req.maxContinueRounds ?? client.wire.max_continue_rounds;
  const now = req.nowSeconds ?? (() => Date.now() / 1000);
  const tracker = new RoundTracker();
  let round = first;
  let roundNo = 0;
  let pow = firstPow;
  // Which view the reader chose; the other one's queue stays empty. Frames are decoded once either way: the
  // tracker that decides the continue rounds reads the very frames the pipeline gets.
  let view: "frames" | "bytes" | null = null;
  let bytes: Uint8Array[] = first.head;
  let frames: SseFrame[] = first.headFrames;
  /** Frames of `frames` already handed on (a burst goes in slices; the rest is not copied for each one). */
  let taken = 0;
  // The round keeps no second reference: a head chunk may be a view of a large read buffer, and an open stream
  // would hold it for its whole life (issue 17, memory per open stream).
  first.head = [];
  first.headFrames = [];
  let tail: number[] = [];
  let over = false;
  let finished = false;

  const pending = () => (view === "frames" ? frames.length - taken : bytes.length);
  // The tracker sees every frame before the round's end is decided: the byte view's at decoding, the frame
  // view's as they are handed on (fill() decides only once all are), so a burst's JSON is not all parsed before
  // its first frame can leave.
  const decoded = (fs: SseFrame[]) => {
    if (view === "frames") for (const f of fs) frames.push(f);
    else for (const f of fs) tracker.observe(f);
  };
  const remember = (chunk: Uint8Array) => {
    if (chunk.byteLength >= 2) tail = [chunk[chunk.byteLength - 2]!, chunk[chunk.byteLength - 1]!];
    else if (chunk.byteLength === 1) tail = [...tail.slice(-1), chunk[0]!];
  };
  const finish = () => {
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

  /** Reads core until the chosen view has something queued; false once the answer is over and all delivered. */
  const fill = async (): Promise<boolean> => {
    for (;;) {
      if (pending() > 0) return true;
      if (over) return false;
      if (!round.ended) {
        const pendingRead = round.pendingRead;
        round.pendingRead = undefined;
        const r = await (pendingRead ?? readIdle(ctx, round));
        if (!r.done) {
          round.sink?.chunk(r.value);
          if (view === "bytes") bytes.push(r.value);
          decoded(round.decoder.push(r.value));
          continue;
        }
        round.ended = true;
      }
      if (!round.flushed) {
        // The round's last block may lack its blank line: core ends rounds by closing the body.
        round.flushed = true;
        decoded(round.decoder.end());
        continue;
      }
      const next = await nextRound();
      if (!next) {
        over = true;
        continue;
      }
      if (view === "bytes") {
        const gap = boundaryAfter(tail);
        if (gap) bytes.push(new TextEncoder().encode(gap));
        bytes.push(...next.head);
        for (const f of next.headFrames) tracker.observe(f);
      } else frames.push(...next.headFrames);
      next.head = [];
      next.headFrames = [];
      round = next;
    }
  };

  /** After a failure: an abort is thrown (with its reason); a core failure is the error for the byte view. */
  const failure = (e: unknown): CoreError => {
    round.sink?.end();
    finish();
    // An aborted body still settles its pending read (with the abort reason): a reader left waiting forever
    // would hold the turn, and with it the account slot (issue 15).
    if (ctx.stopped) throw ctx.stopped.reason ?? e;
    return e instanceof CoreError ? e : new CoreError("upstream_error", `core stream failed: ${(e as Error)?.message ?? e}`);
  };

  const cancel = (reason: unknown) => {
    stop(ctx, reason);
    round.reader.cancel(reason).catch(() => {});
    round.sink?.end();
    if (!finished) finish();
  };

  const choose = (v: "frames" | "bytes") => {
    if (view) throw new Error(`the completion is already read as ${view}`);
    view = v;
    if (v === "frames") bytes = [];
    else {
      for (const f of frames) tracker.observe(f);
      frames = [];
    }
  };

  let framesStream: ReadableStream<CoreFrame[]> | undefined;
  let sliced = false;
  let framesOver = false;
  let bodyStream: ReadableStream<Uint8Array> | undefined;
  /** The frame view as a pull function: the next batch, or null once the answer is over and all delivered. */
  const nextFrames = async (): Promise<CoreFrame[] | null> => {
    if (view !== "frames") choose("frames");
    if (framesOver) return null;
    try {
      // A burst is handed on in slices, with a turn of the event loop between them, so the client's first
      // bytes are written while the rest is still being worked on (issue 17: first byte ≤ 10 ms).
      if (sliced) await new Promise<void>((resolve) => setImmediate(resolve));
      if (!(await fill())) {
        finish();
        framesOver = true;
        return null;
      }
      // What one read completed goes as one batch: one trip through each stage, not one per frame.
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
    } catch (e) {
      framesOver = true;
      // A core failure is the typed last frame; an abort throws (failure() rethrows it).
      const err = failure(e);
      return [{ event: "failure", data: err.message || "core stream failed", failure: err.kind }];
    }
  };
  return {
    sessionId: req.sessionId,
    nextFrames,
    cancel,
    get frames() {
      if (framesStream) return framesStream;
      choose("frames");
      return (framesStream = new ReadableStream<CoreFrame[]>(
        {
          async pull(controller) {
            let batch: CoreFrame[] | null;
            try {
              batch = await nextFrames();
            } catch (e) {
              try {
                controller.error(e);
              } catch {
                // Already cancelled: nobody reads any more.
              }
              return;
            }
            if (batch) controller.enqueue(batch);
            else controller.close();
          },
          cancel,
        },
        { highWaterMark: 0 },
      ));
    },
    get body() {
      if (bodyStream) return bodyStream;
      choose("bytes");
      return (bodyStream = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            try {
              if (!(await fill())) {
                finish();
                controller.close();
                return;
              }
              const chunk = bytes.shift()!;
              remember(chunk);
              controller.enqueue(chunk);
            } catch (e) {
              let err: unknown;
              try {
                err = failure(e);
              } catch (aborted) {
                err = aborted;
              }
              try {
                controller.error(err);
              } catch {
                // Already cancelled: nobody reads any more.
              }
            }
          },
          cancel,
        },
        { highWaterMark: 0 },
      ));
    },
    continues: () => roundNo,
    responseMessageId: () => tracker.responseMessageId,
  };
}

// The per-account retry loop and the older entry point live in attempt.ts; re-exported for existing callers.
export { startCompletion, type CompletionParams, type CompletionOptions, type StartedCompletion } from "./attempt";
