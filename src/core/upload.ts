// File upload and processing status (core-upstream §5.8, §5.9, §9.2): PoW for the upload target, the multipart
// body core's own client sends, then polling until core has processed the file.
import type { CoreClient } from "./client";
import { CoreError } from "./errors";
import type { ProxySpec } from "./proxy-spec";
import { PATHS, UPLOAD_HEADERS, UPLOAD_TARGET } from "./wire";
import { abortableSleep } from "../util/abortable-sleep";

export interface UploadInput {
  /** A stream needs `size`: x-file-size is sent before the bytes. */
  data: Uint8Array | Blob | ReadableStream<Uint8Array>;
  filename: string;
  mime?: string;
  /** Exact byte length; required for a stream, checked against what was streamed. */
  size?: number;
  modelType?: string;
  purpose?: string;
}

export interface UploadOptions {
  signal?: AbortSignal;
  proxy?: ProxySpec;
  /** false: return the upload reply as is, without polling. */
  waitReady?: boolean;
  pollTimeoutMs?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** The gateway's view of a core file (§9.5). */
export interface CoreFile {
  id: string;
  bytes: number;
  filename: string;
  status: string;
  ready: boolean;
  /** core's token count once processed (informational, §7.12). */
  tokenUsage: number | null;
  isImage: boolean;
}

const READY = new Set(["processed", "ready", "done", "available", "success", "completed", "finished"]);
const FAILED = new Set(["failed", "error"]);

/** §5.8: the base name with backslashes and double quotes replaced by `_` (line breaks too); empty → upload.bin. */
export function sanitiseFilename(name: string): string {
  const base = name.slice(name.lastIndexOf("/") + 1);
  const clean = base.replace(/[\\"\r\n]/g, "_");
  return clean || "upload.bin";
}

/** Finds the file object in any reply shape core has been seen (or suspected) to use; `wantedId` narrows it. */
export function fileObjectOf(bizData: unknown, wantedId?: string): Record<string, unknown> | null {
  const seen = new Set<unknown>();
  const walk = (v: unknown, depth: number): Record<string, unknown> | null => {
    if (!v || typeof v !== "object" || depth > 8 || seen.has(v)) return null;
    seen.add(v);
    if (Array.isArray(v)) {
      for (const x of v) {
        const r = walk(x, depth + 1);
        if (r) return r;
      }
      return null;
    }
    const o = v as Record<string, unknown>;
    const id = o.id ?? o.file_id;
    if (typeof id === "string" && id) {
      if (wantedId ? id === wantedId : "status" in o || "file_status" in o || "file_name" in o || "filename" in o) return o;
    }
    for (const x of Object.values(o)) {
      const r = walk(x, depth + 1);
      if (r) return r;
    }
    return null;
  };
  return walk(bizData, 0);
}

function statusOf(o: Record<string, unknown>): string {
  return String(o.status ?? o.file_status ?? "");
}

export function toCoreFile(o: Record<string, unknown>, fallbackName: string, fallbackSize: number): CoreFile {
  const status = statusOf(o);
  const tu = o.token_usage;
  const size = Number(o.file_size ?? o.bytes ?? o.size);
  return {
    id: String(o.id ?? o.file_id),
    bytes: Number.isFinite(size) ? size : fallbackSize,
    filename: String(o.file_name ?? o.filename ?? o.name ?? fallbackName),
    status,
    ready: READY.has(status.toLowerCase()),
    tokenUsage: typeof tu === "number" ? tu : null,
    isImage: o.is_image === true,
  };
}

/** §9.2 failure: status FAILED/ERROR or a non-null error_code. */
export function fileFailed(o: Record<string, unknown>): boolean {
  return FAILED.has(statusOf(o).toLowerCase()) || (o.error_code !== undefined && o.error_code !== null);
}

const encoder = new TextEncoder();

/** A multipart body around a stream of known size, counted so a short or long stream fails the upload. */
function streamedMultipart(data: ReadableStream<Uint8Array>, size: number, filename: string, mime: string, purpose?: string): { body: ReadableStream<Uint8Array>; boundary: string } {
  const boundary = `----svcgw${crypto.randomUUID().replace(/-/g, "")}`;
  const pre = encoder.encode(
    (purpose !== undefined ? `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\n${purpose}\r\n` : "") +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${mime}\r\n\r\n`,
  );
  const post = encoder.encode(`\r\n--${boundary}--\r\n`);
  const reader = data.getReader();
  let stage = 0;
  let seen = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      if (stage === 0) {
        stage = 1;
        c.enqueue(pre);
        return;
      }
      if (stage === 1) {
        const { done, value } = await reader.read();
        if (!done) {
          seen += value.byteLength;
          if (seen > size) return c.error(new Error(`file is longer than its declared size ${size}`));
          c.enqueue(value);
          return;
        }
        if (seen !== size) return c.error(new Error(`file has ${seen} bytes, declared ${size}`));
        stage = 2;
        c.enqueue(post);
        return;
      }
      c.close();
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { body, boundary };
}

export async function uploadFile(client: CoreClient, token: string, input: UploadInput, opts: UploadOptions = {}): Promise<CoreFile> {
  const filename = sanitiseFilename(input.filename);
  const mime = input.mime || "application/octet-stream";
  let body: BodyInit;
  let size: number;
  const headers: Record<string, string> = {};
  if (input.data instanceof ReadableStream) {
    if (input.size === undefined || !Number.isSafeInteger(input.size) || input.size < 0) throw new CoreError("upstream_error", "a streamed upload needs its exact size");
    size = input.size;
    const m = streamedMultipart(input.data, size, filename, mime, input.purpose);
    body = m.body;
    headers["Content-Type"] = `multipart/form-data; boundary=${m.boundary}`;
  } else {
    const blob = input.data instanceof Blob ? input.data : new Blob([input.data as BlobPart], { type: mime });
    size = blob.size;
    const form = new FormData();
    if (input.purpose !== undefined) form.append("purpose", input.purpose);
    // A file-backed Blob (an upload spooled to disk) is appended as is, so it is streamed rather than copied.
    form.append("file", blob.type === mime ? blob : new Blob([blob], { type: mime }), filename);
    body = form;
  }
  const pow = await client.solvePow(token, UPLOAD_TARGET, opts);
  headers[client.wire.pow_header] = pow.header;
  headers[UPLOAD_HEADERS.fileSize] = String(size);
  headers[UPLOAD_HEADERS.thinking] = "1";
  if (input.modelType) headers[UPLOAD_HEADERS.modelType] = input.modelType.toLowerCase();
  const data = await client.call({ method: "POST", path: PATHS.upload, token, body, headers, signal: opts.signal, proxy: opts.proxy }, (d) => fileObjectOf(d));
  const obj = fileObjectOf(data)!;
  if (fileFailed(obj)) throw new CoreError("upstream_error", "core could not process the file");
  const file = toCoreFile(obj, filename, size);
  if (file.ready || opts.waitReady === false) return file;
  return pollUntilReady(client, token, file, opts);
}

/** Polls fetch_files until the file is ready (§9.2): interval, count and overall time from the wire config. */
export async function pollUntilReady(client: CoreClient, token: string, file: CoreFile, opts: UploadOptions = {}): Promise<CoreFile> {
  const w = client.wire;
  const sleep = opts.sleep ?? abortableSleep;
  const deadline = Date.now() + (opts.pollTimeoutMs ?? w.file_poll_timeout_ms);
  for (let i = 0; i < w.file_poll_max && Date.now() < deadline; i++) {
    await sleep(Math.min(w.file_poll_interval_ms, Math.max(0, deadline - Date.now())), opts.signal);
    const data = await client.call({ method: "GET", path: `${PATHS.fetchFiles}?file_ids=${encodeURIComponent(file.id)}`, token, signal: opts.signal, proxy: opts.proxy });
    const obj = fileObjectOf(data, file.id);
    if (!obj) continue;
    if (fileFailed(obj)) throw new CoreError("upstream_error", "core could not process the file");
    const next = toCoreFile(obj, file.filename, file.bytes);
    if (next.ready) return next;
    file = next;
  }
  throw new CoreError("upstream_error", "core did not finish processing the file in time");
}
