// The fetch handler main.ts gives to Bun.serve: app.handle plus the access log line, written when the
// response ends — for streams when the body closes or the client goes away (D3.6).
import type { AppContext } from "../context";
import { requestState, type RequestState } from "./request-state";
import { redactPath } from "./log";
import { routableRequest } from "./route-url";

type Handler = (request: Request) => Promise<Response>;

export function servingHandler(app: { handle: Handler }, ctx: AppContext): Handler {
  return async (incoming) => {
    const request = routableRequest(incoming);
    const response = await app.handle(request);
    const state = requestState(request);
    if (!state) return response;
    state.clientIp = ctx.server?.requestIP(request)?.address ?? "";
    if (request.signal.aborted) state.aborted = true;
    const isStream = (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
    if (!isStream || !response.body) {
      writeAccessLog(ctx, request, state, response.status);
      return response;
    }
    state.stream = true;
    let bytes = 0;
    let first = true;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, c) {
          if (first) {
            first = false;
            state.ttfbMs = Math.round(performance.now() - state.start);
          }
          bytes += chunk.byteLength;
          c.enqueue(chunk);
        },
        flush() {
          state.bytesOut = bytes;
          writeAccessLog(ctx, request, state, response.status);
        },
      }),
    );
    const onAbort = () => {
      state.aborted = true;
      state.bytesOut = bytes;
      writeAccessLog(ctx, request, state, response.status);
    };
    if (request.signal.aborted) onAbort();
    else request.signal.addEventListener("abort", onAbort, { once: true });
    return new Response(counted, { status: response.status, headers: response.headers });
  };
}

export function writeAccessLog(ctx: AppContext, request: Request, state: RequestState, status: number): void {
  if (state.logged) return;
  state.logged = true;
  ctx.onRequestEnd?.();
  ctx.ops?.requestEnded(request, state, status);
  const level = status >= 500 ? "error" : state.quiet ? "debug" : "info";
  ctx.log.log(level, "request", {
    request_id: state.id,
    method: request.method,
    path: redactPath(state.url),
    route: state.route ?? "",
    status,
    duration_ms: Math.round(performance.now() - state.start),
    ttfb_ms: state.ttfbMs ?? null,
    surface: state.surface,
    stream: state.stream ?? false,
    model: state.model ?? "",
    resolved_model: state.resolvedModel ?? "",
    mode: state.mode ?? "",
    caller: state.caller ?? "",
    account: state.account ?? "",
    input_tokens: state.inputTokens ?? null,
    output_tokens: state.outputTokens ?? null,
    error_code: state.errorCode ?? "",
    bytes_out: state.bytesOut ?? null,
    client_ip: state.clientIp ?? "",
    aborted: state.aborted ?? false,
  });
}
