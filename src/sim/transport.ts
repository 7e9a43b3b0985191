// How a simulated body reaches the socket (core-upstream §12.4 `write`, `compression`; §12.5 `eof`): the
// pre-serialised pieces of a round are grouped into writes (one per event, coalesced, seeded random cut
// points, or single bytes), optionally gzip/br-compressed with a flush per write so each write still
// arrives on its own, and an abrupt end resets the connection instead of finishing the chunked body.
import { brotliCompressSync, constants, createBrotliCompress, createGzip, gzipSync, type BrotliCompress, type Gzip } from "node:zlib";
import type { Rng } from "./rng";
import type { Compression, WriteMode } from "./types";
import { concatBytes } from "../util/bytes";

export type Piece = Uint8Array | { sleep: number } | { abrupt: true };

const COALESCE_LIMIT = 256 * 1024;

/** Regroups the byte pieces for the write mode; sleeps and the abrupt end stay where they are. */
export function planWrites(pieces: Piece[], mode: WriteMode, rng: Rng): Piece[] {
  if (mode === "event") return pieces;
  const out: Piece[] = [];
  let run: Uint8Array[] = [];
  let runBytes = 0;
  const flush = () => {
    if (!run.length) return;
    const bytes = concatBytes(run);
    run = [];
    runBytes = 0;
    if (mode === "coalesce") out.push(bytes);
    else if (mode === "byte") for (let i = 0; i < bytes.length; i++) out.push(bytes.subarray(i, i + 1));
    else {
      // Cut points anywhere, including inside `data:`, inside JSON and inside UTF-8 sequences.
      for (let at = 0; at < bytes.length; ) {
        const n = 1 + rng.int(48);
        out.push(bytes.subarray(at, at + n));
        at += n;
      }
    }
  };
  for (const p of pieces) {
    if (p instanceof Uint8Array) {
      run.push(p);
      runBytes += p.length;
      if (mode === "coalesce" && runBytes >= COALESCE_LIMIT) flush();
    } else {
      flush();
      out.push(p);
    }
  }
  flush();
  return out;
}

interface Encoder {
  push(b: Uint8Array): Promise<Uint8Array[]>;
  end(): Promise<Uint8Array[]>;
}

function compressor(kind: "gzip" | "br"): Encoder {
  const z: Gzip | BrotliCompress = kind === "gzip" ? createGzip() : createBrotliCompress();
  const out: Uint8Array[] = [];
  z.on("data", (b: Buffer) => out.push(new Uint8Array(b.buffer, b.byteOffset, b.byteLength)));
  const mode = kind === "gzip" ? constants.Z_SYNC_FLUSH : constants.BROTLI_OPERATION_FLUSH;
  return {
    async push(b) {
      z.write(b);
      await new Promise<void>((r) => z.flush(mode, () => r()));
      return out.splice(0);
    },
    async end() {
      const done = new Promise<void>((r) => z.once("end", () => r()));
      z.end();
      await done;
      return out.splice(0);
    },
  };
}

export interface BodyControl {
  /** Called once when the body is over: finished, reset, cancelled by the client or killed. */
  onEnd(how: "clean" | "abrupt" | "cancelled"): void;
  /** Receives a function that kills the body abruptly (a deleted live session). */
  setKill(kill: () => void): void;
}

/** A streaming body that plays the writes; sleeps wait in real time. */
export function playBody(writes: Piece[], opts: { compression: Compression; yieldBetweenWrites: boolean }, ctl: BodyControl): ReadableStream<Uint8Array> {
  const enc = opts.compression === "none" ? null : compressor(opts.compression);
  let i = 0;
  let ended = false;
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  const end = (how: "clean" | "abrupt" | "cancelled") => {
    if (ended) return;
    ended = true;
    ctl.onEnd(how);
  };
  const reset = () => {
    if (ended) return;
    end("abrupt");
    // An error without a reason: Bun resets the connection (no final chunk) and logs nothing.
    try {
      controller?.error();
    } catch {}
  };
  ctl.setKill(reset);
  return new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    async pull(c) {
      while (!ended) {
        const w = writes[i++];
        if (w === undefined) {
          if (enc) for (const x of await enc.end()) c.enqueue(x);
          end("clean");
          c.close();
          return;
        }
        if (w instanceof Uint8Array) {
          if (enc) for (const x of await enc.push(w)) c.enqueue(x);
          else c.enqueue(w);
          if (opts.yieldBetweenWrites) await new Promise((r) => setImmediate(r));
          return;
        }
        if ("sleep" in w) {
          await Bun.sleep(w.sleep);
          continue;
        }
        // Let what was written reach the socket first, so the client sees the bytes and then the reset.
        await Bun.sleep(5);
        reset();
        return;
      }
    },
    cancel() {
      end("cancelled");
    },
  });
}

/** A whole (non-streaming) body, compressed when asked. */
export function encodeWhole(bytes: Uint8Array, compression: Compression): Uint8Array {
  if (compression === "gzip") return new Uint8Array(gzipSync(bytes));
  if (compression === "br") return new Uint8Array(brotliCompressSync(bytes));
  return bytes;
}
