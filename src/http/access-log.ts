// The access log line (D3.6), written from within Elysia's lifecycle when the response ends — for streams when
// the body closes or the client goes away. app.ts calls these from three places, which between them see every
// answer the app gives:
// - its global mapResponse hook: every answer a route gives, a thrown error's included (Elysia runs mapResponse
//   after the route's onError); a stream is metered here and logged when it ends;
// - its global onError, for the answers no route gives: an unknown path (NOT_FOUND) and a refusal thrown by an
//   onRequest hook (draining);
// - its first onRequest hook, for a CORS preflight, which @elysiajs/cors answers (204) from its own onRequest
//   hook, before any route or mapResponse.
// Elysia's onAfterResponse is not used: it runs from a setImmediate per request (a timer task on every
// request, the line written a tick later) and not at all for an answer an onRequest hook returns.
import type { AppContext } from "../context";
import { logs, redactPath } from "../util/log";
import type { RequestState } from "../metering/request-state";

export function writeAccessLog(ctx: AppContext, request: Request, state: RequestState, status: number): void {
  if (state.logged || state.internal) return;
  state.logged = true;
  ctx.onRequestEnd?.();
  ctx.ops?.requestEnded(state, status, request);
  const level = status >= 500 ? "error" : state.quiet ? "debug" : "info";
  // Built only when it will be written (LOG_LEVEL=warn or error writes no access line below 500).
  if (!logs(ctx.log, level)) return;
  ctx.log.log(level, "request", {
    request_id: state.id,
    method: request.method,
    path: redactPath(state.path, state.search),
    route: state.route ?? "",
    status,
    duration_ms: Math.round(performance.now() - state.start),
    ttfb_ms: state.ttfbMs ?? null,
    surface: state.surface,
    stream: state.stream,
    model: state.model ?? "",
    resolved_model: state.resolvedModel ?? "",
    mode: state.mode ?? "",
    caller: state.caller ?? "",
    account: state.account ?? "",
    input_tokens: state.inputTokens ?? null,
    output_tokens: state.outputTokens ?? null,
    error_code: state.errorCode ?? "",
    bytes_out: state.bytesOut ?? null,
    client_ip: state.clientIp,
    aborted: state.aborted,
  });
}

function isEventStream(response: Response): boolean {
  return response.headers.get("content-type")?.startsWith("text/event-stream") === true;
}

/**
 * What the global mapResponse hook does with an answer: a plain one is logged now; an event stream is logged
 * when its body closes or the client goes away. A body made by sse.ts counts its own bytes (it is metered
 * through the state, no extra stream layer); any other event stream gets one counting TransformStream, and the
 * returned Response replaces the route's.
 */
export function logOrMeter(ctx: AppContext, request: Request, state: RequestState, value: unknown, setStatus: unknown): Response | undefined {
  if (!(value instanceof Response)) {
    writeAccessLog(ctx, request, state, typeof setStatus === "number" ? setStatus : 200);
    return undefined;
  }
  const status = value.status;
  if (!value.body || !isEventStream(value)) {
    writeAccessLog(ctx, request, state, status);
    return undefined;
  }
  state.stream = true;
  const end = new StreamLogEnd(ctx, request, state, status);
  if (request.signal.aborted) end.handleEvent();
  else request.signal.addEventListener("abort", end, { once: true });
  if (state.metered) {
    state.streamEnd = end;
    return undefined;
  }
  let bytes = 0;
  state.bytesOut = 0;
  const counted = value.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, c) {
        if (bytes === 0) state.ttfbMs = Math.round(performance.now() - state.start);
        bytes += chunk.byteLength;
        state.bytesOut = bytes;
        c.enqueue(chunk);
      },
      flush() {
        end.end(false);
      },
    }),
  );
  return new Response(counted, { status, headers: value.headers });
}

/**
 * A stream's access-log line, written when its body ends or the client goes away (whichever is first: the line is
 * written once). One object per stream, its own abort listener (handleEvent), instead of two closures and their
 * scope (issue 35: an open stream keeps it).
 */
class StreamLogEnd {
  constructor(
    private readonly ctx: AppContext,
    private readonly request: Request,
    private readonly state: RequestState,
    private readonly status: number,
  ) {}

  /** The client's signal aborted. */
  handleEvent(): void {
    this.end(true);
  }

  end(aborted: boolean): void {
    if (aborted) this.state.aborted = true;
    writeAccessLog(this.ctx, this.request, this.state, this.status);
  }
}
