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
import { SseDecoder } from "../pipeline/sse-decode";
import { RoundTracker } from "../pipeline/round-decision";

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
  /** Overrides upstream.max_continue_rounds. */
  maxContinueRounds?: number;
  /** Unix seconds, for the PoW re-use check (§6.5); tests inject a clock. */
  nowSeconds?: () => number;
  /** Records every round's raw body (dev captures, D13). */
  onRound?: (round: RoundInfo) => RoundSink | undefined;
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

export interface CoreCompletion {
  sessionId: string;
  /** Every round's bytes, joined with SSE block boundaries preserved; each round starts with its `ready`. */
  body: ReadableStream<Uint8Array>;
  /** Continue calls made so far. */
  continues(): number;
  /** The response message id seen so far (0 before `ready`). */
  responseMessageId(): number;
}

/** The head check reads at most this much before handing the stream on (§10.7: 8 data lines / 16 KiB). */
const HEAD_BYTES = 16 * 1024;
const HEAD_DATA_LINES = 8;
const POW_REUSE_MARGIN_S = 10;
const LF = 10;

interface Round {
  reader: ReadableStreamDefaultReader<Uint8Array>;
  head: Uint8Array[];
  /** EOF was reached during the head check. */
  ended: boolean;
  abort: AbortController;
  sink?: RoundSink;
}

interface Ctx {
  client: CoreClient;
  req: CompletionRequest;
  /** Aborted by the caller's signal or by cancelling the body. */
  life: AbortController;
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
  const life = new AbortController();
  const unlink = link(req.signal, life);
  const ctx: Ctx = { client, req, life, idleMs: req.idleTimeoutMs ?? client.wire.stream_idle_timeout_ms };
  try {
    const pow = await client.solvePow(req.token, COMPLETION_TARGET, { signal: life.signal, proxy: req.proxy });
    const first = await openRound(ctx, PATHS.completion, completionBody(req), pow, "completion", 0);
    return joinRounds(ctx, pow, first, unlink);
  } catch (e) {
    unlink();
    throw e;
  }
}

function link(parent: AbortSignal | undefined, child: AbortController): () => void {
  if (!parent) return () => {};
  if (parent.aborted) child.abort(parent.reason);
  const on = () => child.abort(parent.reason);
  parent.addEventListener("abort", on, { once: true });
  return () => parent.removeEventListener("abort", on);
}

/** One read, bounded by the idle timeout: on silence the round's request is aborted. */
async function readIdle(ctx: Ctx, round: Pick<Round, "reader" | "abort">): Promise<Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let idle = false;
  const silence = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      idle = true;
      reject(new CoreError("upstream_timeout", `core sent nothing for ${ctx.idleMs} ms`));
      round.abort.abort(new DOMException("core stream idle", "TimeoutError"));
      round.reader.cancel().catch(() => {});
    }, ctx.idleMs);
  });
  try {
    return await Promise.race([round.reader.read(), silence]);
  } catch (e) {
    if (idle) throw new CoreError("upstream_timeout", `core sent nothing for ${ctx.idleMs} ms`);
    if (e instanceof CoreError) throw e;
    if (ctx.life.signal.aborted) throw ctx.life.signal.reason ?? e;
    throw new CoreError("upstream_error", `core stream broke: ${(e as Error)?.message ?? e}`);
  } finally {
    clearTimeout(timer);
  }
}

/** Sends one completion or continue request and checks its head (status, JSON envelope, early error lines). */
async function openRound(ctx: Ctx, path: string, body: Record<string, unknown>, pow: SolvedPow, label: RoundInfo["label"], roundNo: number): Promise<Round> {
  const abort = new AbortController();
  const unlink = link(ctx.life.signal, abort);
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
      signal: abort.signal,
      timeoutMs: 0,
      proxy: ctx.req.proxy,
    });
  } catch (e) {
    unlink();
    throw e;
  }
  const sink = ctx.req.onRound?.({ label, round: roundNo, path, requestBody, status: res.status, startedAt });
  const fail = async (err: CoreError): Promise<never> => {
    sink?.end();
    abort.abort();
    unlink();
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
  const round: Round = { reader: res.body.getReader(), head: [], ended: false, abort, sink };
  const decoder = new SseDecoder();
  let bytes = 0;
  let dataLines = 0;
  for (;;) {
    let r: Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>>;
    try {
      r = await readIdle(ctx, round);
    } catch (e) {
      sink?.end();
      unlink();
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
    for (const f of r.done ? decoder.end() : decoder.push(r.value)) {
      if (f.event === "raw") {
        // A bare JSON body instead of a stream (§5.6): an envelope, classified by §4.
        let parsed: unknown = null;
        try {
          parsed = JSON.parse(f.data);
        } catch {}
        return fail(new CoreError(classifyFailure(200, parsed), `${path}: ${envelopeText(parsed) || "error envelope instead of a stream"}`, 200));
      }
      if (f.comment || !f.data) continue;
      dataLines++;
      let obj: Record<string, unknown> | null = null;
      try {
        obj = JSON.parse(f.data);
      } catch {}
      if (!obj || typeof obj !== "object") continue;
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
  let decoder = new SseDecoder();
  let pending = [...first.head];
  let tail: number[] = [];
  let finished = false;

  const observe = (chunk: Uint8Array) => {
    for (const f of decoder.push(chunk)) tracker.observe(f);
  };
  for (const c of pending) observe(c);
  const remember = (chunk: Uint8Array) => {
    if (chunk.byteLength >= 2) tail = [chunk[chunk.byteLength - 2]!, chunk[chunk.byteLength - 1]!];
    else if (chunk.byteLength === 1) tail = [...tail.slice(-1), chunk[0]!];
  };
  const finish = () => {
    finished = true;
    unlink();
  };

  /** End of the current round's body: the next round's head, or null when the answer is over. */
  const nextRound = async (): Promise<Round | null> => {
    round.sink?.end();
    for (const f of decoder.end()) tracker.observe(f);
    if (!tracker.shouldContinue(roundNo, maxRounds, true)) return null;
    roundNo++;
    tracker.nextRound();
    decoder = new SseDecoder();
    // The completion's answer may be re-used while it has more than 10 s left (§5.7, §6.5).
    if (pow.challenge.expire_at - now() <= POW_REUSE_MARGIN_S) pow = await client.solvePow(req.token, COMPLETION_TARGET, { signal: ctx.life.signal, proxy: req.proxy });
    const body = { chat_session_id: req.sessionId, message_id: tracker.responseMessageId, fallback_to_resume: true };
    return openRound(ctx, PATHS.continue, body, pow, "continue", roundNo);
  };

  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          for (;;) {
            const chunk = pending.shift();
            if (chunk) {
              remember(chunk);
              controller.enqueue(chunk);
              return;
            }
            if (!round.ended) {
              const r = await readIdle(ctx, round);
              if (!r.done) {
                round.sink?.chunk(r.value);
                observe(r.value);
                remember(r.value);
                controller.enqueue(r.value);
                return;
              }
              round.ended = true;
            }
            const next = await nextRound();
            if (!next) {
              finish();
              controller.close();
              return;
            }
            const gap = boundaryAfter(tail);
            round = next;
            pending = [...next.head];
            for (const c of pending) observe(c);
            if (gap) {
              remember(new TextEncoder().encode(gap));
              controller.enqueue(new TextEncoder().encode(gap));
              return;
            }
          }
        } catch (e) {
          round.sink?.end();
          finish();
          // An aborted body still settles its pending read (with the abort reason): a reader left waiting forever
          // would hold the turn, and with it the account slot (issue 15).
          if (ctx.life.signal.aborted) {
            try {
              controller.error(ctx.life.signal.reason ?? e);
            } catch {
              // Already cancelled: nobody reads any more.
            }
            return;
          }
          controller.error(e instanceof CoreError ? e : new CoreError("upstream_error", `core stream failed: ${(e as Error)?.message ?? e}`));
        }
      },
      cancel(reason) {
        ctx.life.abort(reason);
        round.abort.abort(reason);
        round.reader.cancel(reason).catch(() => {});
        round.sink?.end();
        if (!finished) finish();
      },
    },
    { highWaterMark: 0 },
  );
  return { sessionId: req.sessionId, body, continues: () => roundNo, responseMessageId: () => tracker.responseMessageId };
}

// The per-account retry loop and the older entry point live in attempt.ts; re-exported for existing callers.
export { startCompletion, type CompletionParams, type CompletionOptions, type StartedCompletion } from "./attempt";
