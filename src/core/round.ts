// A completion's round I/O (core-upstream §5.6, §7.10, §10.7): one completion or continue request sent, its head
// checked (HTTP errors, JSON envelopes and early error lines become typed CoreErrors before anything reaches the
// client), and its body read under the idle timeout. completion.ts joins the rounds into one stream of frames.
// The request goes through CoreClient.fetch, which returns a Response whose body is the round's bytes.
import { classifyFailure, classifyStreamError } from "./classify";
import type { CoreClient, SolvedPow } from "./client";
import { CoreError } from "./errors";
import type { ProxySpec } from "./proxy-spec";
import { frameJson, SseDecoder, type SseFrame } from "./sse";

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

/** A round is its own idle watch (its fields): no object of its own per open stream (issue 35). */
export interface Round extends IdleWatch {
  reader: ReadableStreamDefaultReader<Uint8Array>;
  /** The head's frames: the head check decoded them, nobody decodes them again. */
  headFrames: SseFrame[];
  decoder: SseDecoder;
  /** EOF was reached during the head check. */
  ended: boolean;
  /** The decoder's last block was flushed. */
  flushed: boolean;
  sink?: RoundSink;
  /** A read the head check started and stopped waiting for (HEAD_GRACE_MS): the joined stream takes it over. */
  pendingRead?: Promise<ReadResult>;
}

/**
 * The idle timeout (§2) as one timer per round instead of a timer and a Promise.race per read: a read marks its
 * start, and the timer, when it fires, trips only if a read has been pending for the whole timeout. While nobody
 * reads (the client is slow to pull) it does not re-arm, so an abandoned round keeps no timer alive.
 */
export interface IdleWatch {
  reading: boolean;
  since: number;
  tripped: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export interface Ctx {
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

/** The caller ends the completion: its reason is kept (thrown to readers) and every round's request is aborted. */
export function stop(ctx: Ctx, reason: unknown): void {
  ctx.stopped ??= { reason };
  ctx.life.abort(reason);
}

/** A round failed on its own: its request is aborted, and with it the completion, which that failure ends. */
function abortRound(ctx: Ctx, reason?: unknown): void {
  ctx.life.abort(reason);
}

/** The caller's signal followed by the completion: one listener object, unlinked when the completion is over. */
export class CallerLink {
  constructor(
    private readonly ctx: Ctx,
    private readonly parent: AbortSignal,
  ) {
    parent.addEventListener("abort", this, { once: true });
  }

  handleEvent(): void {
    stop(this.ctx, this.parent.reason);
  }

  unlink(): void {
    this.parent.removeEventListener("abort", this);
  }
}

export function followCaller(ctx: Ctx, parent: AbortSignal | undefined): CallerLink | null {
  if (!parent) return null;
  if (parent.aborted) stop(ctx, parent.reason);
  return new CallerLink(ctx, parent);
}

export type ReadResult = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>>;

// One read, bounded by the idle timeout (on silence the round's request is aborted), in steps: beginRead starts it
// and the idle watch; its answer is taken at once when it is there (readAtOnce), else awaited (readSettled, or in
// the joined rounds' own frame: an open stream waits in one suspended frame there instead of two; issue 35);
// readEnded and readFailed end the watch.

/** The end of a read begun by beginRead, awaited. */
async function readSettled(ctx: Ctx, round: IdleWatch, read: Promise<ReadResult>): Promise<ReadResult> {
  let r: ReadResult;
  try {
    r = await read;
  } catch (e) {
    throw readFailed(ctx, round, e);
  }
  return readEnded(ctx, round, r);
}

/**
 * The answer of a begun read when it is there already (core's bytes were buffered when the read was asked: nearly
 * always for the read after the head, and for most later ones while core sends faster than the gateway reads),
 * taken now; undefined when the read is still pending (or failed), to be awaited as before. An answer taken now
 * costs no await, and the head check no grace timer (issue 35, CPU per request).
 */
export function readAtOnce(ctx: Ctx, round: IdleWatch, read: Promise<ReadResult>): ReadResult | undefined {
  if (Bun.peek.status(read) !== "fulfilled") return undefined;
  return readEnded(ctx, round, Bun.peek(read) as ReadResult);
}

/** A read of the round begins: the idle watch counts from now until readEnded or readFailed. */
export function beginRead(ctx: Ctx, round: Pick<Round, "reader"> & IdleWatch): Promise<ReadResult> {
  round.reading = true;
  round.since = performance.now();
  if (!round.timer) watch(ctx, round, ctx.idleMs);
  return round.reader.read();
}

/** The read gave `r`: returned, unless the idle timeout tripped meanwhile (thrown). */
export function readEnded(ctx: Ctx, round: IdleWatch, r: ReadResult): ReadResult {
  round.reading = false;
  if (round.tripped) {
    stopWatch(round);
    throw idleError(ctx);
  }
  if (r.done) stopWatch(round);
  return r;
}

/** The read failed with `e`: the error its reader is to see. */
export function readFailed(ctx: Ctx, round: IdleWatch, e: unknown): unknown {
  round.reading = false;
  stopWatch(round);
  if (round.tripped) return idleError(ctx);
  if (e instanceof CoreError) return e;
  if (ctx.stopped) return ctx.stopped.reason ?? e;
  return new CoreError("upstream_error", `core stream broke: ${(e as Error)?.message ?? e}`);
}

function idleError(ctx: Ctx): CoreError {
  return new CoreError("upstream_timeout", `core sent nothing for ${ctx.idleMs} ms`);
}

function watch(ctx: Ctx, round: Pick<Round, "reader"> & IdleWatch, ms: number): void {
  // A shared callback given its round as arguments: no closure per round (issue 35).
  round.timer = setTimeout(idleTimerFired, ms, ctx, round);
}

function idleTimerFired(ctx: Ctx, round: Pick<Round, "reader"> & IdleWatch): void {
  round.timer = undefined;
  if (!round.reading) return;
  const waited = performance.now() - round.since;
  // Timers may fire a hair early; a millisecond is no difference to a timeout of seconds.
  if (waited < ctx.idleMs - 1) return watch(ctx, round, ctx.idleMs - waited);
  round.tripped = true;
  abortRound(ctx, new DOMException("core stream idle", "TimeoutError"));
  round.reader.cancel().catch(() => {});
}

export function stopWatch(w: IdleWatch): void {
  clearTimeout(w.timer);
  w.timer = undefined;
}

/** Sends one completion or continue request and checks its head (status, JSON envelope, early error lines). */
export async function openRound(ctx: Ctx, path: string, body: Record<string, unknown>, powHeader: string, label: RoundInfo["label"], roundNo: number): Promise<Round> {
  const startedAt = Date.now();
  const requestBody = JSON.stringify(body);
  let res: Response;
  try {
    res = await ctx.client.fetch({
      method: "POST",
      path,
      token: ctx.req.token,
      body: requestBody,
      headers: { "Content-Type": "application/json", [ctx.client.wire.pow_header]: powHeader },
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
  const round: Round = { reader: null as unknown as Round["reader"], headFrames: [], decoder, ended: false, flushed: false, sink, reading: false, since: 0, tripped: false, timer: undefined };
  const fail = async (err: CoreError): Promise<never> => {
    stopWatch(round);
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
      const begun = beginRead(ctx, round);
      const now = readAtOnce(ctx, round, begun);
      if (now) r = now;
      else {
        const read = readSettled(ctx, round, begun);
        const grace = graceAfter(Math.max(0, graceEnds - performance.now()));
        let first: Awaited<typeof read> | typeof GRACE;
        try {
          first = await Promise.race([read, grace.promise]);
        } finally {
          grace.cancel();
        }
        if (first === GRACE) {
          // Core accepted the completion and is silent: the answer starts now; the joined stream continues this read.
          round.pendingRead = read;
          read.catch(() => {}); // the joined stream reports its outcome; an unread failure must not go unhandled meanwhile
          break;
        }
        r = first;
      }
    } catch (e) {
      sink?.end();
      // Abrupt EOF or a network failure before any output: retried in a new session (§10.7); status 200 says
      // the stream had started.
      if (e instanceof CoreError && e.status === undefined) throw new CoreError(e.kind, e.message, 200);
      throw e;
    }
    if (!r.done) {
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

