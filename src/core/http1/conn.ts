// One HTTP/1.1 connection of the socket-level client (client.ts): a Bun socket whose events go to this object,
// which is also the response body's underlying source and the abort signal's listener. An open stream so holds
// one object and a ReadableStream, not a chain of closures: the point of this client is what a silent stream
// costs (issue 35; Bun's fetch keeps a 256 KiB read view per body a reader waits on, PERFORMANCE.md).
import type { Socket, SocketHandler } from "bun";
import { ChunkedDecoder, FramingError, HeadReader, type ResponseHead } from "./framing";
import { none, pushed } from "../../util/none";

type Phase = "setup" | "head" | "body" | "idle" | "closed";
type Framing = "length" | "chunked" | "close" | "none";

/** A connection error in fetch's terms: an errno-like `code` and a message (core/http.ts words it). */
export function netError(code: string, message: string, cause?: unknown): Error {
  const e = new Error(message, cause === undefined ? undefined : { cause }) as Error & { code: string };
  e.code = code;
  return e;
}

/** The server closed a re-used connection before answering: the request may be sent again on a new one. */
export class StaleConnection extends Error {}

/**
 * Bytes held for a reader that is not waiting before the socket is paused. What arrived between two reads is
 * handed over as one chunk, as fetch's body does: core writes a burst in many small writes, and a reader given
 * each socket read alone saw the answer in finer pieces than through fetch (and did more work per byte).
 */
const HOLD_BYTES = 64 * 1024;
/** No set-up bytes: shared, so a connection without a proxy holds no buffer of its own. */
const EMPTY = new Uint8Array(0);

export class Conn implements UnderlyingDefaultSource<Uint8Array>, EventListenerObject {
  socket: Socket<Conn> | null = null;
  phase: Phase = "setup";
  /** Taken from the pool for this request. */
  reused = false;
  /** The pool this connection returns to (client.ts). */
  poolKey = "";
  /** The connection may serve another request once this response is read (client.ts pools it). */
  onReusable: ((c: Conn) => void) | null = null;
  signal: AbortSignal | null = null;
  /** Bytes of this request's answer received so far (a re-used connection closed at 0 is stale). */
  received = 0;
  closeAfter = false;
  noBody = false;
  /**
   * The whole answer is collected and handed over with its head (`ResponseHead.body`): an ordinary JSON call
   * needs no stream, no Response and no reader around a few hundred bytes (issue 35, CPU per request).
   */
  collect = false;
  /** The call's deadline (core/deadlines.ts) ended it: the caller reports a timeout, whatever failed after. */
  expired = false;
  stream: ReadableStream<Uint8Array> | null = null;
  /** Collect mode: the head, held until the body's end, and the body's parts. */
  private collectedHead: ResponseHead | null = null;
  private parts: Uint8Array[] = none();
  private partsBytes = 0;
  private setupBuf: Uint8Array = EMPTY;
  private setupWait: { resolve(): void; reject(e: unknown): void } | null = null;
  private handshakeWait: { resolve(): void; reject(e: unknown): void } | null = null;
  private headWait: { resolve(h: ResponseHead): void; reject(e: unknown): void } | null = null;
  private headReader: HeadReader | null = null;
  private framing: Framing = "none";
  private remaining = 0;
  private chunked: ChunkedDecoder | null = null;
  private controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  private paused = false;
  /** A read is waiting and nothing was there for it: the next bytes go to it directly. */
  private pulling = false;
  /** Bytes received while no read was waiting. */
  private held: Uint8Array[] | null = null;
  private heldBytes = 0;
  private out: Uint8Array | null = null;
  private failure: unknown = null;

  // ---- set-up (proxies, TLS) ----

  get failureReason(): unknown {
    return this.failure ?? netError("ECONNRESET", "connection closed");
  }

  /** The set-up bytes received so far (a proxy's answers); `consume` drops what was used. */
  get setupBytes(): Uint8Array {
    return this.setupBuf;
  }

  consume(n: number): void {
    this.setupBuf = this.setupBuf.subarray(n);
  }

  /** Resolves when more set-up bytes arrive. */
  more(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => (this.setupWait = { resolve, reject }));
  }

  /** Resolves when the TLS handshake succeeded and the certificate is trusted. */
  handshake(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => (this.handshakeWait = { resolve, reject }));
  }

  onHandshake(ok: boolean, authError: Error | null): void {
    const w = this.handshakeWait;
    this.handshakeWait = null;
    if (ok && !authError) w?.resolve();
    else {
      const code = (authError as { code?: string } | null)?.code ?? "ERR_TLS_HANDSHAKE";
      const e = netError(code, `TLS handshake failed: ${authError?.message ?? "no details"}`);
      w?.reject(e);
      this.destroy(e);
    }
  }

  // ---- the request ----

  /** Writes bytes (a string as UTF-8), keeping what the socket did not take for its next drain. */
  send(data: Uint8Array | string): void {
    if (this.out) {
      this.out = Buffer.concat([this.out, typeof data === "string" ? Buffer.from(data) : data]);
      return;
    }
    const w = this.socket!.write(data);
    const size = typeof data === "string" ? Buffer.byteLength(data) : data.length;
    if (w < size) this.out = (typeof data === "string" ? Buffer.from(data) : data).subarray(Math.max(0, w));
  }

  onDrain(): void {
    const b = this.out;
    if (!b) return;
    this.out = null;
    this.send(b);
  }

  /** Resolves with the response head; the body is then `stream`. */
  awaitHead(): Promise<ResponseHead> {
    this.phase = "head";
    this.received = 0;
    this.headReader = new HeadReader();
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => (this.headWait = { resolve, reject }));
  }

  // ---- socket events ----

  onData(d: Uint8Array): void {
    this.received += d.length;
    try {
      if (this.phase === "body") return this.body(d);
      if (this.phase === "head") return this.headData(d);
      if (this.phase === "setup") {
        this.setupBuf = this.setupBuf.length ? Buffer.concat([this.setupBuf, d]) : d;
        const w = this.setupWait;
        this.setupWait = null;
        w?.resolve();
        return;
      }
      // Bytes on an idle connection: nothing may be read from it any more.
      this.destroy(null);
    } catch (e) {
      this.destroy(e);
    }
  }

  private headData(d: Uint8Array): void {
    const at = this.headReader!.push(d);
    if (at < 0) return;
    const head = this.headReader!.take();
    const rest = d.subarray(at);
    // Interim answers (100 Continue, 103 Early Hints) are skipped; a 101 would end HTTP, and core never sends one.
    if (head.status >= 100 && head.status < 200 && head.status !== 101) {
      if (rest.length) this.headData(rest);
      return;
    }
    this.headReader = null;
    const te = head.transferEncoding;
    const cl = head.contentLength;
    if (this.noBody || head.status === 204 || head.status === 304) this.framing = "none";
    else if (te && /(^|,)\s*chunked\s*$/i.test(te)) {
      this.framing = "chunked";
      this.chunked = new ChunkedDecoder();
    } else if (te) this.framing = "close";
    else if (cl !== undefined) {
      if (!/^\d+$/.test(cl)) throw new FramingError("malformed content-length");
      this.framing = "length";
      this.remaining = Number(cl);
      if (this.remaining === 0) this.framing = "none";
    } else this.framing = "close";
    if (head.close) this.closeAfter = true;
    this.phase = "body";
    if (this.collect) this.collectedHead = head;
    else {
      if (this.framing !== "none") this.stream = new ReadableStream<Uint8Array>(this, { highWaterMark: 0 });
      const w = this.headWait;
      this.headWait = null;
      w?.resolve(head);
    }
    if (this.framing === "none") this.finish(rest.length > 0);
    else if (rest.length) this.body(rest);
  }

  private body(d: Uint8Array): void {
    switch (this.framing) {
      case "length": {
        const take = Math.min(this.remaining, d.length);
        this.enqueue(take === d.length ? d : d.subarray(0, take));
        this.remaining -= take;
        if (this.remaining === 0) this.finish(take < d.length);
        return;
      }
      case "chunked": {
        const dec = this.chunked!;
        for (const part of dec.push(d)) this.enqueue(part);
        if (dec.done) this.finish(dec.rest > 0);
        return;
      }
      case "close":
        this.enqueue(d);
        return;
    }
  }

  private enqueue(part: Uint8Array): void {
    if (this.collect) {
      // The socket hands every read a buffer of its own, so the views are kept as they are.
      if (part.length) this.parts = pushed(this.parts, part);
      this.partsBytes += part.length;
      return;
    }
    const c = this.controller;
    if (!c || part.length === 0) return;
    if (this.pulling) {
      this.pulling = false;
      c.enqueue(part);
      return;
    }
    (this.held ??= []).push(part);
    this.heldBytes += part.length;
    // Backpressure: a reader that does not keep up stops the socket, as fetch's body does.
    if (!this.paused && this.heldBytes >= HOLD_BYTES) {
      this.paused = true;
      this.socket?.pause();
    }
  }

  /** Hands what is held to the body as one chunk. */
  private flushHeld(): boolean {
    if (!this.heldBytes) return false;
    const held = this.held!;
    const chunk = held.length === 1 ? held[0]! : Buffer.concat(held, this.heldBytes);
    this.held = null;
    this.heldBytes = 0;
    this.controller?.enqueue(chunk);
    return true;
  }

  /** The answer is complete: the body ends and the connection is pooled or closed. */
  private finish(extraBytes: boolean): void {
    this.phase = "idle";
    this.signal?.removeEventListener("abort", this);
    this.signal = null;
    if (this.collect) this.handOver();
    this.pulling = false;
    try {
      this.flushHeld();
      this.controller?.close();
    } catch {
      // Cancelled meanwhile.
    }
    this.controller = null;
    this.chunked = null;
    if (this.paused) {
      this.paused = false;
      this.socket?.resume();
    }
    if (extraBytes || this.closeAfter || this.framing === "close" || !this.onReusable) this.destroy(null);
    else this.onReusable(this);
  }

  onClose(err?: unknown): void {
    if (this.phase === "closed") return;
    const phase = this.phase;
    const why = err instanceof Error ? netError((err as { code?: string }).code ?? "ECONNRESET", err.message) : netError("ECONNRESET", "the server closed the connection");
    if (phase === "head" && this.reused && this.received === 0) this.fail(new StaleConnection("a kept-alive connection was closed before the answer"));
    else if (phase === "body" && this.framing === "close" && !err) {
      this.phase = "idle";
      if (this.collect) this.handOver();
      this.pulling = false;
      try {
        this.flushHeld();
        this.controller?.close();
      } catch {}
      this.controller = null;
      this.signal?.removeEventListener("abort", this);
      this.signal = null;
      this.phase = "closed";
      // The server's end of the stream is its end of the answer: nothing more is read from this socket.
      try {
        this.socket?.terminate();
      } catch {}
    } else if (phase === "body") this.fail(netError("ECONNRESET", `the connection closed before the body's end (${why.message})`));
    else this.fail(why);
    this.phase = "closed";
  }

  /** Collect mode: the answer is complete; the head goes to the caller with the body (the value carries both, so
   *  a request that re-uses this connection meanwhile cannot mix them up). */
  private handOver(): void {
    const head = this.collectedHead!;
    const parts = this.parts;
    head.body = parts.length === 1 ? parts[0]! : parts.length === 0 ? EMPTY : Buffer.concat(parts, this.partsBytes);
    this.collectedHead = null;
    this.parts = none();
    this.partsBytes = 0;
    const w = this.headWait;
    this.headWait = null;
    w?.resolve(head);
  }

  /** The call's deadline (core/deadlines.ts): the connection is closed and its waiter told the deadline passed. */
  expire(): void {
    // Already ended (the caller's abort, a failure): that is how the call ended, not the deadline.
    if (this.phase === "closed") return;
    this.expired = true;
    this.destroy(netError("ETIMEDOUT", "the call's deadline passed"));
  }

  /** Ends everything waiting on this connection with `e` and closes it. */
  private fail(e: unknown): void {
    this.failure = e;
    this.signal?.removeEventListener("abort", this);
    this.signal = null;
    const waits = [this.setupWait, this.handshakeWait, this.headWait];
    this.setupWait = this.handshakeWait = this.headWait = null;
    for (const w of waits) w?.reject(e);
    this.held = null;
    this.heldBytes = 0;
    this.collectedHead = null;
    this.parts = none();
    this.pulling = false;
    try {
      this.controller?.error(e);
    } catch {}
    this.controller = null;
    this.phase = "closed";
    try {
      this.socket?.terminate();
    } catch {}
  }

  /** Closes the connection; `e` (when not null) fails whoever waits on it. */
  destroy(e: unknown): void {
    if (this.phase === "closed") return;
    if (e) this.fail(e);
    else {
      this.phase = "closed";
      this.failure = netError("ECONNRESET", "connection closed");
      try {
        this.socket?.terminate();
      } catch {}
    }
  }

  // ---- the caller's abort signal ----

  handleEvent(): void {
    const reason = this.signal?.reason ?? new DOMException("aborted", "AbortError");
    this.fail(reason);
  }

  // ---- the body's underlying source ----

  start(controller: ReadableStreamDefaultController<Uint8Array>): void {
    this.controller = controller;
  }

  pull(): void {
    if (!this.flushHeld()) this.pulling = true;
    if (this.paused) {
      this.paused = false;
      this.socket?.resume();
    }
  }

  cancel(): void {
    this.signal?.removeEventListener("abort", this);
    this.signal = null;
    this.controller = null;
    this.destroy(null);
  }
}

const conn = (s: Socket<Conn>): Conn | null => (s.data && s === s.data.socket ? s.data : null);

/**
 * Every connection's handlers, one object: a socket upgraded to TLS (a proxy's tunnel) keeps delivering its
 * ciphertext to the raw socket's handlers too (Bun's upgradeTLS), so events count only from the socket the
 * connection currently uses.
 */
export const HANDLERS: SocketHandler<Conn> = {
  open(s) {
    if (s.data && !s.data.socket) s.data.socket = s;
  },
  data(s, d) {
    conn(s)?.onData(d);
  },
  drain(s) {
    conn(s)?.onDrain();
  },
  handshake(s, ok, err) {
    conn(s)?.onHandshake(ok, err);
  },
  end(s) {
    conn(s)?.onClose();
  },
  close(s, err) {
    conn(s)?.onClose(err);
  },
  error(s, err) {
    conn(s)?.onClose(err);
  },
  timeout(s) {
    // Only pooled connections have a timeout: idle for too long, they close before the server closes them.
    conn(s)?.destroy(null);
  },
};
