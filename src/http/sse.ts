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

/**
 * The access log's view of a stream (the request's RequestState): the body counts the bytes it hands to the
 * runtime and the time of the runtime's first read itself, and says when it ends — so the access log needs no
 * counting stream layer of its own (access-log.ts).
 */
export interface StreamMeter {
  readonly start: number;
  metered: boolean;
  bytesOut?: number;
  ttfbMs?: number;
  streamEnded?: (aborted: boolean) => void;
}

export interface SseOptions {
  keepAlive: string;
  idleMs?: number;
  meter?: StreamMeter;
}

/**
 * What an SSE body pulls its text from: a ReadableStream's reader, or anything that reads the same way — the
 * surfaces hand a turn's fused stages over directly (turn-service.ts `turnText`), so a streamed answer needs
 * no TransformStream between the turn and this body.
 */
export interface TextSource {
  read(): Promise<{ done: boolean; value?: string }>;
  cancel(reason?: unknown): Promise<void>;
}

export function sseBody(source: ReadableStream<string> | TextSource, opts: SseOptions): ReadableStream<Uint8Array> {
  const idleMs = opts.idleMs ?? 15_000;
  const reader: TextSource = source instanceof ReadableStream ? source.getReader() : source;
  const meter = opts.meter;
  let pending: Promise<{ done: boolean; value?: string }> | null = null;
  let bytes = 0;
  let read = false;
  if (meter) {
    meter.metered = true;
    meter.bytesOut = 0;
  }
  const send = (controller: ReadableStreamDefaultController<Uint8Array>, text: string) => {
    const chunk = encoder.encode(text);
    if (meter) meter.bytesOut = bytes += chunk.byteLength;
    controller.enqueue(chunk);
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        send(controller, opts.keepAlive);
      },
      async pull(controller) {
        if (!read && meter) {
          // The runtime reads the opening keep-alive before it asks for more: the first byte is on its way.
          read = true;
          meter.ttfbMs = Math.round(performance.now() - meter.start);
        }
        pending ??= reader.read();
        let timer: ReturnType<typeof setTimeout> | undefined;
        const idle = new Promise<"idle">((resolve) => {
          timer = setTimeout(() => resolve("idle"), idleMs);
        });
        let result: Awaited<typeof pending> | "idle";
        try {
          result = await Promise.race([pending, idle]);
        } catch (e) {
          // A failing source ends the body (the runtime drops the connection): the stream has ended all the same.
          meter?.streamEnded?.(false);
          throw e;
        } finally {
          clearTimeout(timer);
        }
        if (result === "idle") {
          send(controller, opts.keepAlive);
          return;
        }
        pending = null;
        const r = result as { done: boolean; value?: string };
        if (r.done) {
          controller.close();
          meter?.streamEnded?.(false);
        } else if (r.value) send(controller, r.value);
      },
      cancel(reason) {
        // The runtime cancels the body when the client goes away.
        meter?.streamEnded?.(true);
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

export function sseResponse(source: ReadableStream<string> | TextSource, opts: SseOptions & { headers?: Record<string, string> }): Response {
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
