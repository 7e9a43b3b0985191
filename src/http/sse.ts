// SSE responses (D9.2, D9.3). The body is pulled from the rendered source, so backpressure holds from the
// client back to core; when nothing has been written for 15 s a keep-alive goes out; a client that goes
// away cancels the source, which aborts the core request and frees the account slot.
//
// The body opens with one keep-alive, written at once: Bun writes the status line but holds the rest of the
// header block until the body's first chunk (it reads that chunk to choose between Content-Length and
// chunked encoding), so without it a client saw no headers while core was silent before its first token
// and its header timeout could fire (issue 16 item 3). Every surface's keep-alive is a form its clients'
// SSE parsers skip, so the opening one is invisible to them too.

export const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache",
  "X-Accel-Buffering": "no",
};

export const KEEPALIVE_COMMENT = ": keep-alive\n\n";
export const KEEPALIVE_PING = 'event: ping\ndata: {"type":"ping"}\n\n';
/**
 * Generate-content keep-alive: a blank line. The SSE parser of the Google SDK bundled in Gemini CLI matches
 * its whole buffer against `^\s*data: (.*)\n\n` and never drops what does not match, so a `:` comment
 * blocks every later event; leading whitespace is skipped by that `\s*`, and `@google/genai` splits on
 * blank lines and ignores events that do not start with `data:` (issue 16 item 2; tests/http/sse-parsers).
 * For a standard SSE parser an empty line with no data dispatches nothing.
 */
export const KEEPALIVE_BLANK = "\n\n";

const encoder = new TextEncoder();

export function sseBody(source: ReadableStream<string>, opts: { keepAlive: string; idleMs?: number }): ReadableStream<Uint8Array> {
  const idleMs = opts.idleMs ?? 15_000;
  const reader = source.getReader();
  let pending: Promise<{ done: boolean; value?: string }> | null = null;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(opts.keepAlive));
      },
      async pull(controller) {
        pending ??= reader.read();
        let timer: ReturnType<typeof setTimeout> | undefined;
        const idle = new Promise<"idle">((resolve) => {
          timer = setTimeout(() => resolve("idle"), idleMs);
        });
        const result = await Promise.race([pending, idle]);
        clearTimeout(timer);
        if (result === "idle") {
          controller.enqueue(encoder.encode(opts.keepAlive));
          return;
        }
        pending = null;
        const r = result as { done: boolean; value?: string };
        if (r.done) controller.close();
        else if (r.value) controller.enqueue(encoder.encode(r.value));
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

export function sseResponse(source: ReadableStream<string>, opts: { keepAlive: string; idleMs?: number; headers?: Record<string, string> }): Response {
  return new Response(sseBody(source, opts), { status: 200, headers: { ...SSE_HEADERS, ...(opts.headers ?? {}) } });
}

/** `data: <json>\n\n` */
export function dataFrame(obj: unknown): string {
  return `data: ${JSON.stringify(obj)}\n\n`;
}

/** `event: <name>\ndata: <json>\n\n` */
export function eventFrame(name: string, obj: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(obj)}\n\n`;
}
