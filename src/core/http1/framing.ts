// HTTP/1.1 response framing (RFC 9112) for the socket-level client: the response head, and a chunked body's
// decoder. Both take bytes exactly as the socket delivers them — any split, one byte at a time included — and
// hand on views of the input rather than copies (the socket gives every read a fresh buffer).

/** A response head larger than this is refused: core's heads are a few hundred bytes. */
export const MAX_HEAD_BYTES = 64 * 1024;

export interface ResponseHead {
  status: number;
  statusText: string;
  /** Header fields in the order received, names as sent. */
  headers: [string, string][];
  /** HTTP/1.0, or `Connection: close`: the connection ends with this response. */
  close: boolean;
  /** The whole body, when the connection collected it (conn.ts `collect`). */
  body?: Uint8Array;
  /** The first value of each field the client itself acts on, found while parsing (no second search per call). */
  transferEncoding?: string;
  contentLength?: string;
  contentEncoding?: string;
  contentType?: string;
}

export class FramingError extends Error {
  readonly code = "EPROTO";
}

/**
 * Collects a response head across reads. `push` returns the index just past the head's blank line within the
 * given chunk once the head is complete, or -1 while it needs more.
 */
const BLANK_LINE = Buffer.from("\r\n\r\n", "latin1");

export class HeadReader {
  private parts: Uint8Array[] = [];
  private size = 0;
  /** The last three bytes seen, so a `\r\n\r\n` split across reads is found. */
  private tail = 0;
  /** A head found whole in one read: that read and where the head ends in it. */
  private whole: Buffer | null = null;
  private wholeEnd = 0;

  push(chunk: Uint8Array): number {
    // The usual case, a whole head in one read: found by the native search, kept without a view of its own.
    if (this.parts.length === 0 && chunk instanceof Buffer) {
      const at = chunk.indexOf(BLANK_LINE);
      if (at >= 0) {
        this.whole = chunk;
        this.wholeEnd = at + 4;
        return at + 4;
      }
    }
    let t = this.tail;
    for (let i = 0; i < chunk.length; i++) {
      t = ((t << 8) | chunk[i]!) >>> 0;
      if (t === 0x0d0a0d0a) {
        this.parts.push(chunk.subarray(0, i + 1));
        this.tail = 0;
        return i + 1;
      }
    }
    this.tail = t;
    this.parts.push(chunk);
    this.size += chunk.length;
    if (this.size > MAX_HEAD_BYTES) throw new FramingError(`response head larger than ${MAX_HEAD_BYTES} bytes`);
    return -1;
  }

  /** The completed head, parsed; the reader is then empty for a next head (after a 1xx). */
  take(): ResponseHead {
    const whole = this.whole;
    if (whole) {
      this.whole = null;
      return parseHead(whole.toString("latin1", 0, this.wholeEnd));
    }
    const bytes = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
    this.parts = [];
    this.size = 0;
    return parseHead(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1"));
  }
}

/** Parses `HTTP/1.1 200 OK\r\nName: value\r\n…\r\n\r\n`. */
export function parseHead(text: string): ResponseHead {
  const lines = text.split("\r\n");
  const m = /^HTTP\/1\.([01]) (\d{3})(?: (.*))?$/.exec(lines[0] ?? "");
  if (!m) throw new FramingError(`not an HTTP/1.x response: ${JSON.stringify((lines[0] ?? "").slice(0, 40))}`);
  const headers: [string, string][] = [];
  const head: ResponseHead = { status: Number(m[2]), statusText: m[3] ?? "", headers, close: false };
  let close = m[1] === "0";
  let keepAlive = false;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line) continue;
    const colon = line.indexOf(":");
    if (colon <= 0) throw new FramingError("malformed header line in the response head");
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    headers.push([name, value]);
    // Only names of the lengths the client acts on are lower-cased and compared.
    const n = name.length;
    if (n !== 10 && n !== 12 && n !== 14 && n !== 16 && n !== 17) continue;
    switch (name.toLowerCase()) {
      case "connection": {
        const v = value.toLowerCase();
        if (v.includes("close")) close = true;
        if (v.includes("keep-alive")) keepAlive = true;
        break;
      }
      case "content-type":
        head.contentType ??= value;
        break;
      case "content-length":
        head.contentLength ??= value;
        break;
      case "content-encoding":
        head.contentEncoding ??= value;
        break;
      case "transfer-encoding":
        head.transferEncoding ??= value;
        break;
    }
  }
  // An HTTP/1.0 server keeps the connection only when it says so.
  if (m[1] === "0" && keepAlive && !headers.some(([n, v]) => n.toLowerCase() === "connection" && v.toLowerCase().includes("close"))) close = false;
  head.close = close;
  return head;
}

const enum Chunk {
  Size,
  Ext,
  SizeLf,
  Data,
  DataCr,
  DataLf,
  Trailer,
  TrailerLf,
  Done,
}

/**
 * A chunked body's decoder. `push` returns the data of the chunks in the input (views of it); `done` turns
 * true after the last chunk and its trailer section, and `rest` then holds how many input bytes followed it.
 */
export class ChunkedDecoder {
  private state = Chunk.Size;
  private remaining = 0;
  private digits = 0;
  /** Bytes on the current trailer line (0 at the empty line that ends the body). */
  private lineLen = 0;
  rest = 0;

  get done(): boolean {
    return this.state === Chunk.Done;
  }

  push(input: Uint8Array): Uint8Array[] {
    const out: Uint8Array[] = [];
    let i = 0;
    const n = input.length;
    while (i < n && this.state !== Chunk.Done) {
      switch (this.state) {
        case Chunk.Size: {
          const c = input[i]!;
          const d = hexValue(c);
          if (d >= 0) {
            if (++this.digits > 12) throw new FramingError("chunk size too large");
            this.remaining = this.remaining * 16 + d;
            i++;
          } else if (this.digits === 0) throw new FramingError("chunk size expected");
          else if (c === 0x0d) {
            this.state = Chunk.SizeLf;
            i++;
          } else if (c === 0x3b || c === 0x20 || c === 0x09) {
            this.state = Chunk.Ext;
            i++;
          } else throw new FramingError("malformed chunk size line");
          break;
        }
        case Chunk.Ext: {
          // Chunk extensions are ignored (RFC 9112 §7.1.1): skip to the line's end.
          const cr = input.indexOf(0x0d, i);
          if (cr < 0) i = n;
          else {
            i = cr + 1;
            this.state = Chunk.SizeLf;
          }
          break;
        }
        case Chunk.SizeLf:
          if (input[i++] !== 0x0a) throw new FramingError("malformed chunk size line");
          this.digits = 0;
          if (this.remaining === 0) {
            this.state = Chunk.Trailer;
            this.lineLen = 0;
          } else this.state = Chunk.Data;
          break;
        case Chunk.Data: {
          const take = Math.min(this.remaining, n - i);
          out.push(input.subarray(i, i + take));
          i += take;
          this.remaining -= take;
          if (this.remaining === 0) this.state = Chunk.DataCr;
          break;
        }
        case Chunk.DataCr:
          if (input[i++] !== 0x0d) throw new FramingError("chunk data longer than its size");
          this.state = Chunk.DataLf;
          break;
        case Chunk.DataLf:
          if (input[i++] !== 0x0a) throw new FramingError("chunk data longer than its size");
          this.state = Chunk.Size;
          break;
        case Chunk.Trailer: {
          const c = input[i++]!;
          if (c === 0x0d) this.state = Chunk.TrailerLf;
          else if (++this.lineLen > MAX_HEAD_BYTES) throw new FramingError("trailer section too large");
          break;
        }
        case Chunk.TrailerLf:
          if (input[i++] !== 0x0a) throw new FramingError("malformed trailer section");
          if (this.lineLen === 0) this.state = Chunk.Done;
          else {
            this.lineLen = 0;
            this.state = Chunk.Trailer;
          }
          break;
      }
    }
    this.rest = n - i;
    return out;
  }
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}
