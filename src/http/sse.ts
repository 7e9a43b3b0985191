// SSE responses (D9.2, D9.3). The body is the last stage of the turn's pipe chain, so backpressure holds from
// the client back to core; when nothing has been written for 15 s a keep-alive goes out; a client that goes
// away cancels the chain, which aborts the core request and frees the account slot.
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
 * The SSE body as the pipeline's last stage: the renderer's text (a batch of strings per chunk) → bytes, opening
 * with one keep-alive and adding one whenever nothing was written for `idleMs` while the client was waiting
 * (nothing queued). Backpressure passes through it; a client that goes away cancels it, and the cancel runs back
 * through every stage to the turn.
 */
export function sseStage(opts: SseOptions): TransformStream<string | string[], Uint8Array> {
  return new TransformStream<string | string[], Uint8Array>(new SseTransformer(opts), undefined, { highWaterMark: 0 });
}

/**
 * The SSE body's writer for a stream that renders inside its own source (src/turn/staged-turn.ts: the turn's
 * stages and this writer in one ReadableStream, no TransformStream of its own; issue 35): the same transformer,
 * given each rendered batch and the body stream's controller.
 */
export function sseWriter(opts: SseOptions): SseWriter {
  return new SseTransformer(opts);
}

/** What the SSE writer needs of a controller: a TransformStream's or a ReadableStream's. */
interface SseController {
  enqueue(chunk: Uint8Array): void;
  readonly desiredSize: number | null;
}

export interface SseWriter {
  start(c: SseController): void;
  transform(chunk: string | string[]): void;
  flush(): void;
  cancel(): void;
}

/** A class, not closures: an open stream keeps it for as long as it lives (issue 17, memory per stream). */
class SseTransformer implements Transformer<string | string[], Uint8Array>, SseWriter {
  private controller!: SseController;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private bytes = 0;
  // The options' parts as fields: no options object kept per open stream (issue 35).
  private readonly idleMs: number;
  private readonly keepAlive: string;
  private readonly meter: StreamMeter | undefined;

  constructor(opts: SseOptions) {
    this.idleMs = opts.idleMs ?? 15_000;
    this.keepAlive = opts.keepAlive;
    const meter = (this.meter = opts.meter);
    if (meter) {
      meter.metered = true;
      meter.bytesOut = 0;
    }
  }

  start(c: SseController): void {
    this.controller = c;
    this.send(this.keepAlive);
    // The opening keep-alive is the first byte: the runtime writes it with the headers.
    if (this.meter) this.meter.ttfbMs = Math.round(performance.now() - this.meter.start);
  }

  transform(chunk: string | string[]): void {
    const text = typeof chunk === "string" ? chunk : chunk.join("");
    if (text) this.send(text);
  }

  flush(): void {
    this.stopTimer();
    this.meter?.streamEnded?.(false);
  }

  /** The client went away (the body was cancelled) or the turn failed (the runtime drops the connection). */
  cancel(): void {
    this.stopTimer();
    this.meter?.streamEnded?.(true);
  }

  private send(text: string): void {
    const chunk = encoder.encode(text);
    this.bytes += chunk.byteLength;
    if (this.meter) this.meter.bytesOut = this.bytes;
    this.controller.enqueue(chunk);
    // The keep-alive timer starts over: the pending one re-armed (a write per token would otherwise make a timer
    // per token), a shared callback given this writer (no closure per stream).
    if (this.timer) this.timer.refresh();
    else this.timer = setTimeout(sseIdle, this.idleMs, this);
  }

  idle(): void {
    this.timer = undefined;
    const room = this.controller.desiredSize;
    // The stream is over (closed or errored): nothing more to keep alive.
    if (room === null) return;
    // Only while the client waits: a client that does not read has what is queued, and a keep-alive on top of
    // it would be one more thing to hold.
    if (room >= 0) this.send(this.keepAlive);
    else this.timer = setTimeout(sseIdle, this.idleMs, this);
  }

  private stopTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

function sseIdle(writer: SseTransformer): void {
  writer.idle();
}

/** The rendered text as an SSE body: `source` piped through the SSE stage. */
export function sseBody(source: ReadableStream<string | string[]>, opts: SseOptions): ReadableStream<Uint8Array> {
  return source.pipeThrough(sseStage(opts));
}

export function sseResponse(source: ReadableStream<string | string[]>, opts: SseOptions & { headers?: Record<string, string> }): Response {
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
