// Completion and continue rounds (core-upstream §5.6, §5.7, §7.10, §10.7): session, PoW, the completion
// request with 3 attempts per account, a head check that turns busy and envelope answers into retryable
// errors, and one joined byte stream over every continue round. The stream is pulled (backpressure reaches
// core), cancelling it aborts the current core request, and core silence beyond the idle timeout ends it with
// an in-stream error.
import { BUSY_TEXT, classifyFailure, classifyStreamError } from "./classify";
import type { CoreClient, SolvedPow } from "./client";
import { CoreError, retryableOnAccount } from "./errors";
import type { ProxySpec } from "./http";
import { COMPLETION_TARGET, PATHS } from "./wire";
import { SseDecoder } from "../pipeline/sse-decode";
import { RoundTracker } from "../pipeline/round-decision";

export interface CompletionParams {
  modelType: string;
  prompt: string;
  refFileIds: string[];
  thinking: boolean;
  search: boolean;
  passThrough: Record<string, unknown>;
}

export interface CompletionOptions {
  signal: AbortSignal;
  proxy?: ProxySpec;
  sleep?: (ms: number) => Promise<void>;
  /** Records every round's raw body (dev captures). */
  onRound?: (round: { label: "completion" | "continue"; round: number; path: string; requestBody: string; status: number; startedAt: number }) => RoundSink | undefined;
}

export interface RoundSink {
  chunk(bytes: Uint8Array): void;
  end(): void;
}

export interface StartedCompletion {
  sessionId: string;
  body: ReadableStream<Uint8Array>;
}

const ATTEMPTS = 3;
const HEAD_BYTES = 16 * 1024;
const HEAD_DATA_LINES = 8;
const PASS_THROUGH = ["temperature", "top_p", "max_tokens", "max_completion_tokens", "presence_penalty", "frequency_penalty", "stop"];
const encoder = new TextEncoder();

interface OpenRound {
  reader: ReadableStreamDefaultReader<Uint8Array>;
  head: Uint8Array[];
  abort: AbortController;
  sink?: RoundSink;
}

export async function startCompletion(client: CoreClient, token: string, params: CompletionParams, opts: CompletionOptions): Promise<StartedCompletion> {
  const sleep = opts.sleep ?? ((ms: number) => Bun.sleep(ms));
  let last: unknown = null;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    try {
      const sessionId = await client.createSession(token, { signal: opts.signal, proxy: opts.proxy });
      const pow = await client.solvePow(token, COMPLETION_TARGET, { signal: opts.signal, proxy: opts.proxy });
      const body: Record<string, unknown> = {
        chat_session_id: sessionId,
        model_type: params.modelType,
        parent_message_id: null,
        prompt: params.prompt,
        ref_file_ids: params.refFileIds,
        thinking_enabled: params.thinking,
        search_enabled: params.search,
      };
      for (const k of PASS_THROUGH) if (params.passThrough[k] !== undefined) body[k] = params.passThrough[k];
      const round = await openRound(client, token, PATHS.completion, body, pow, opts, "completion", 0);
      return { sessionId, body: joinRounds(client, token, sessionId, pow, round, opts) };
    } catch (e) {
      last = e;
      if (opts.signal.aborted) throw e;
      if (!(e instanceof CoreError) || !retryableOnAccount(e.kind)) throw e;
      if (attempt < ATTEMPTS) await sleep(250 * attempt);
    }
  }
  throw last;
}

/** Sends one completion or continue request and checks its head (status, JSON envelope, early error lines). */
async function openRound(
  client: CoreClient,
  token: string,
  path: string,
  body: Record<string, unknown>,
  pow: SolvedPow,
  opts: CompletionOptions,
  label: "completion" | "continue",
  round: number,
): Promise<OpenRound> {
  const abort = new AbortController();
  const onAbort = () => abort.abort(opts.signal.reason);
  opts.signal.addEventListener("abort", onAbort, { once: true });
  const startedAt = Date.now();
  const requestBody = JSON.stringify(body);
  let res: Response;
  try {
    res = await client.fetch({
      method: "POST",
      path,
      token,
      body: requestBody,
      headers: { "Content-Type": "application/json", [client.wire.pow_header]: pow.header },
      signal: abort.signal,
      timeoutMs: 0,
      proxy: opts.proxy,
    });
  } catch (e) {
    if (opts.signal.aborted) throw e;
    throw new CoreError("upstream_error", `core unreachable: ${(e as Error).message}`);
  }
  const sink = opts.onRound?.({ label, round, path, requestBody, status: res.status, startedAt });
  if (res.status !== 200 || !res.body) {
    const text = await res.text().catch(() => "");
    sink?.chunk(encoder.encode(text));
    sink?.end();
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {}
    throw new CoreError(classifyFailure(res.status, parsed), `${path}: HTTP ${res.status}`, res.status);
  }
  const reader = res.body.getReader();
  const head: Uint8Array[] = [];
  const decoder = new SseDecoder();
  let bytes = 0;
  let dataLines = 0;
  // Read until the stream has shown real content, or enough bytes / lines that an error line would have come.
  for (;;) {
    const { done, value } = await reader.read();
    if (!done) {
      head.push(value);
      sink?.chunk(value);
      bytes += value.byteLength;
    }
    let content = false;
    // At the end of a short body the last line has no line end yet: end() completes it.
    for (const f of done ? decoder.end() : decoder.push(value)) {
      if (f.event === "raw") {
        let parsed: unknown = null;
        try {
          parsed = JSON.parse(f.data);
        } catch {}
        const kind = classifyFailure(200, parsed);
        sink?.end();
        await reader.cancel().catch(() => {});
        throw new CoreError(kind, `${path}: ${f.data.includes(BUSY_TEXT) ? "session busy" : "error envelope"}`);
      }
      if (f.event !== "message" || f.comment) continue;
      dataLines++;
      let obj: Record<string, unknown> | null = null;
      try {
        obj = JSON.parse(f.data);
      } catch {}
      if (obj && obj.type === "error") {
        const kind = classifyStreamError(obj);
        // Busy and other early errors are retried; input_exceeds_limit is decided by the prompt layer.
        sink?.end();
        await reader.cancel().catch(() => {});
        throw new CoreError(kind, `${path}: ${typeof obj.content === "string" ? obj.content : "error"}`);
      }
      if (obj && "v" in obj) content = true;
    }
    if (done || content || bytes >= HEAD_BYTES || dataLines >= HEAD_DATA_LINES) break;
  }
  return { reader, head, abort, sink };
}

/** One byte stream over the completion round and every continue round (§7.10). */
function joinRounds(client: CoreClient, token: string, sessionId: string, pow: SolvedPow, first: OpenRound, opts: CompletionOptions): ReadableStream<Uint8Array> {
  let round = first;
  let roundNo = 0;
  let pending = [...first.head];
  const tracker = new RoundTracker();
  let decoder = new SseDecoder();
  for (const chunk of pending) for (const f of decoder.push(chunk)) tracker.observe(f);
  let lastBytes = "";
  let currentPow = pow;
  const idleMs = client.wire.stream_idle_timeout_ms;
  let closed = false;

  const remember = (chunk: Uint8Array) => {
    const tail = new TextDecoder().decode(chunk.subarray(Math.max(0, chunk.byteLength - 2)));
    lastBytes = (lastBytes + tail).slice(-2);
  };
  const failFrame = (code: string, message: string) =>
    encoder.encode(`\n\ndata: ${JSON.stringify({ type: "error", content: message, gateway_code: code })}\n\n`);

  const readWithIdle = async (): Promise<{ done: boolean; value?: Uint8Array } | "idle"> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const idle = new Promise<"idle">((r) => (timer = setTimeout(() => r("idle"), idleMs)));
    try {
      return await Promise.race([round.reader.read(), idle]);
    } finally {
      clearTimeout(timer);
    }
  };

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (pending.length) {
          const chunk = pending.shift()!;
          remember(chunk);
          controller.enqueue(chunk);
          return;
        }
        for (;;) {
          let r: Awaited<ReturnType<typeof readWithIdle>>;
          try {
            r = await readWithIdle();
          } catch (e) {
            round.sink?.end();
            if (opts.signal.aborted || closed) return;
            // Abrupt EOF or a network failure after the response started: an in-stream error (D4.5).
            controller.enqueue(failFrame("upstream_error", `core stream broke: ${(e as Error).message}`));
            closed = true;
            controller.close();
            return;
          }
          if (r === "idle") {
            round.abort.abort();
            round.sink?.end();
            controller.enqueue(failFrame("upstream_timeout", "core sent nothing for too long"));
            closed = true;
            controller.close();
            return;
          }
          if (!r.done && r.value) {
            round.sink?.chunk(r.value);
            for (const f of decoder.push(r.value)) tracker.observe(f);
            remember(r.value);
            controller.enqueue(r.value);
            return;
          }
          // End of a round.
          round.sink?.end();
          for (const f of decoder.end()) tracker.observe(f);
          if (!tracker.shouldContinue(roundNo, client.wire.max_continue_rounds)) {
            closed = true;
            controller.close();
            return;
          }
          roundNo++;
          tracker.nextRound();
          decoder = new SseDecoder();
          try {
            // The completion's answer may be re-used while it has more than 10 s left (§5.7, §6.5).
            if (currentPow.challenge.expire_at - Date.now() / 1000 <= 10)
              currentPow = await client.solvePow(token, COMPLETION_TARGET, { signal: opts.signal, proxy: opts.proxy });
            round = await openRound(
              client,
              token,
              PATHS.continue,
              { chat_session_id: sessionId, message_id: tracker.responseMessageId, fallback_to_resume: true },
              currentPow,
              opts,
              "continue",
              roundNo,
            );
          } catch (e) {
            if (opts.signal.aborted) return;
            controller.enqueue(failFrame("upstream_error", `continue failed: ${(e as Error).message}`));
            closed = true;
            controller.close();
            return;
          }
          // Keep SSE block boundaries between rounds: the previous body must end with a blank line.
          if (lastBytes !== "\n\n") controller.enqueue(encoder.encode(lastBytes.endsWith("\n") ? "\n" : "\n\n"));
          pending = [...round.head];
          for (const chunk of pending) for (const f of decoder.push(chunk)) tracker.observe(f);
          const chunk = pending.shift();
          if (chunk) {
            remember(chunk);
            controller.enqueue(chunk);
          }
          return;
        }
      },
      cancel(reason) {
        closed = true;
        round.abort.abort(reason);
        round.sink?.end();
      },
    },
    { highWaterMark: 0 },
  );
}
