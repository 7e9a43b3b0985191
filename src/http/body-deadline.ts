// The body read deadline (issue 15). Business requests lift Bun's idle timeout (D1.3) before their body is
// read, so a client trickling a body one byte per second held its connection for good. A body must keep
// coming: no byte for BODY_TIMEOUT_MS, or an average below BODY_MIN_BYTES_PER_SECOND once the first
// BODY_TIMEOUT_MS are over (the rule of Apache's mod_reqtimeout: each KiB buys one more second), → 408.
// An idle rule alone would not stop one byte per second; a rate rule alone would let a client that sent
// 10 MiB quickly then stall for hours.
import { GatewayError } from "../util/gateway-error";

export const BODY_TIMEOUT_MS = 30_000;
export const BODY_MIN_BYTES_PER_SECOND = 1024;

export const bodyTimeoutError = () =>
  new GatewayError(408, "request_timeout", "The request body arrived too slowly; send it again at a steady pace.", {
    // The rest of the body will not be read: end the connection rather than leave it half-read.
    headers: { Connection: "close" },
  });

/**
 * The runtime fails a body read when the chunked framing is broken or the client went away mid-body. Bun
 * has already answered a broken framing with its own 400; either way this is the client's doing, so it is a
 * 400 here too and never an "unhandled error" 500 in the log.
 */
function unreadable(): never {
  throw new GatewayError(400, "invalid_request", "The request body could not be read (broken chunked framing, or the connection closed).", {
    headers: { Connection: "close" },
  });
}

/** The deadline of an app: BODY_TIMEOUT_MS unless its context says another (tests set it on a running gateway). */
export function bodyTimeoutOf(ctx: { bodyTimeoutMs?: number }): number {
  return ctx.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
}

/**
 * Reads a small body whose length is declared (Content-Length, no chunked framing) whole, without a stream.
 * Why: Bun's request body stream allocates a 256 KiB read buffer for its first read whatever the body's size,
 * so reading a 200-byte chat request through a reader dropped 256 KiB on the heap per request, most of what a
 * request allocated and an eden collection every ≈ 30 requests (docs/PERFORMANCE.md, eighth wave).
 *
 * A whole read shows no progress, so the two rules above become their bound at the declared length: the body
 * must have arrived by `timeoutMs` + length / BODY_MIN_BYTES_PER_SECOND after the read began — the rate rule's
 * deadline once every byte is in, which no body that keeps both rules misses. A body that stops altogether is
 * cut up to length / 1 KiB seconds later than the idle rule would cut it; WHOLE_READ_MAX bounds that.
 */
export async function readDeclaredBody(request: Request, length: number, timeoutMs: number): Promise<Uint8Array> {
  const whole = request.bytes();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expiry = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, timeoutMs + (length / BODY_MIN_BYTES_PER_SECOND) * 1000, undefined);
  });
  let bytes: Uint8Array | undefined;
  try {
    bytes = await Promise.race([whole, expiry]);
  } catch {
    unreadable();
  } finally {
    clearTimeout(timer);
  }
  if (bytes) return bytes;
  // The answer (408, Connection: close) ends the connection, and with it this read: it then fails, unheard.
  whole.catch(() => {});
  throw bodyTimeoutError();
}

/** The largest declared body read whole (readDeclaredBody): one that stops is held ≤ 16 s past the idle rule. */
export const WHOLE_READ_MAX = 16 * 1024;

/**
 * Reads a body stream chunk by chunk under the deadline; on expiry cancels the stream and throws 408.
 *
 * One timer per body rather than one per read (bodies are read on every request): it is armed by the first
 * read, and when it fires it re-arms itself for the deadline the progress since has earned, or, once that is
 * past, cancels the stream — which ends a pending read — and the read throws 408. It is cleared when the body
 * ends, fails or is cancelled; a consumer that stops reading without either has it fire once more, at the
 * deadline, and cancel the abandoned stream.
 */
export class DeadlineReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly start = performance.now();
  private lastProgress = this.start;
  private bytes = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private expired = false;
  /** The body ended and the reader was let go. */
  private finished = false;

  constructor(
    stream: ReadableStream<Uint8Array>,
    private readonly timeoutMs: number,
  ) {
    this.reader = stream.getReader();
  }

  private deadline(): number {
    const idle = this.lastProgress + this.timeoutMs;
    const rate = this.start + this.timeoutMs + (this.bytes / BODY_MIN_BYTES_PER_SECOND) * 1000;
    return Math.min(idle, rate);
  }

  private readonly onTimer = (): void => {
    const left = this.deadline() - performance.now();
    if (left > 0) {
      this.timer = setTimeout(this.onTimer, left);
      return;
    }
    this.timer = undefined;
    this.expired = true;
    this.reader.cancel().catch(() => {});
  };

  private stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  async read(): Promise<{ done: true; value?: undefined } | { done: false; value: Uint8Array }> {
    if (this.expired) throw bodyTimeoutError();
    if (this.finished) return { done: true };
    this.timer ??= setTimeout(this.onTimer, Math.max(0, this.deadline() - performance.now()));
    let r: Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>>;
    try {
      r = await this.reader.read();
    } catch {
      this.stop();
      if (this.expired) throw bodyTimeoutError();
      unreadable();
    }
    // The timer cancelled the stream while this read waited: the read ended as "done", but the body did not.
    if (this.expired) throw bodyTimeoutError();
    if (r.done) {
      this.stop();
      // The request keeps its body stream while its answer streams (the access log holds the request): the
      // stream need not keep this reader, its closed promise and its read request too (issue 35).
      this.finished = true;
      this.reader.releaseLock();
      return { done: true };
    }
    this.bytes += r.value.byteLength;
    this.lastProgress = performance.now();
    return r;
  }

  async cancel(): Promise<void> {
    this.stop();
    if (this.finished) return;
    await this.reader.cancel().catch(() => {});
  }
}
