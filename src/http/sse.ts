// SSE responses (D9.2, D9.3). The body is pulled from the rendered source, so backpressure holds from the
// client back to core; when nothing has been written for 15 s a keep-alive goes out; a client that goes
// away cancels the source, which aborts the core request and frees the account slot.

export const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache",
  "X-Accel-Buffering": "no",
};

export const KEEPALIVE_COMMENT = ": keep-alive\n\n";
export const KEEPALIVE_PING = 'event: ping\ndata: {"type":"ping"}\n\n';

const encoder = new TextEncoder();

export function sseBody(source: ReadableStream<string>, opts: { keepAlive: string; idleMs?: number }): ReadableStream<Uint8Array> {
  const idleMs = opts.idleMs ?? 15_000;
  const reader = source.getReader();
  let pending: Promise<{ done: boolean; value?: string }> | null = null;
  return new ReadableStream<Uint8Array>(
    {
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
