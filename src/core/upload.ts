// File upload and processing status (core-upstream §5.8, §5.9, §9.2).
import type { CoreClient } from "./client";
import { CoreError } from "./errors";
import type { ProxySpec } from "./http";
import { PATHS, UPLOAD_TARGET } from "./wire";

export interface UploadInput {
  data: Uint8Array | Blob;
  filename: string;
  mime?: string;
  modelType?: string;
  purpose?: string;
}

export interface CoreFile {
  id: string;
  bytes: number;
  filename: string;
  status: string;
  ready: boolean;
  tokenUsage: number | null;
}

const READY = new Set(["processed", "ready", "done", "available", "success", "completed", "finished"]);
const FAILED = new Set(["failed", "error"]);

export function sanitiseFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const clean = base.replace(/[\\"]/g, "_");
  return clean || "upload.bin";
}

/** Finds the file object in any of the reply shapes core has been seen (or suspected) to use. */
export function fileObjectOf(bizData: unknown, wantedId?: string): Record<string, unknown> | null {
  const seen = new Set<unknown>();
  const walk = (v: unknown, depth: number): Record<string, unknown> | null => {
    if (!v || typeof v !== "object" || depth > 6 || seen.has(v)) return null;
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
    if (typeof id === "string" && (!wantedId || id === wantedId) && ("status" in o || "file_status" in o || "file_name" in o || "filename" in o)) return o;
    for (const x of Object.values(o)) {
      const r = walk(x, depth + 1);
      if (r) return r;
    }
    return null;
  };
  return walk(bizData, 0);
}

function toCoreFile(o: Record<string, unknown>, fallbackName: string, fallbackSize: number): CoreFile {
  const status = String(o.status ?? o.file_status ?? "");
  const tu = o.token_usage;
  return {
    id: String(o.id ?? o.file_id),
    bytes: Number(o.file_size ?? o.bytes ?? o.size ?? fallbackSize),
    filename: String(o.file_name ?? o.filename ?? o.name ?? fallbackName),
    status,
    ready: READY.has(status.toLowerCase()),
    tokenUsage: typeof tu === "number" ? tu : null,
  };
}

function failed(o: Record<string, unknown>): boolean {
  const status = String(o.status ?? o.file_status ?? "").toLowerCase();
  return FAILED.has(status) || (o.error_code !== undefined && o.error_code !== null);
}

export async function uploadFile(
  client: CoreClient,
  token: string,
  input: UploadInput,
  opts: { signal?: AbortSignal; proxy?: ProxySpec; waitReady?: boolean; pollTimeoutMs?: number } = {},
): Promise<CoreFile> {
  const pow = await client.solvePow(token, UPLOAD_TARGET, opts);
  const filename = sanitiseFilename(input.filename);
  const blob = input.data instanceof Blob ? input.data : new Blob([input.data as BlobPart], { type: input.mime || "application/octet-stream" });
  const form = new FormData();
  // A file-backed Blob (an upload spooled to disk) is appended as is, so it is streamed rather than copied.
  form.append("file", blob, filename);
  if (input.purpose) form.append("purpose", input.purpose);
  const headers: Record<string, string> = {
    [client.wire.pow_header]: pow.header,
    "x-file-size": String(blob.size),
    "x-thinking-enabled": "1",
  };
  if (input.modelType) headers["x-model-type"] = input.modelType.toLowerCase();
  const data = await client.call({ method: "POST", path: PATHS.upload, token, body: form, headers, signal: opts.signal, proxy: opts.proxy }, (d) => fileObjectOf(d));
  const obj = fileObjectOf(data)!;
  if (failed(obj)) throw new CoreError("upstream_error", "core could not process the file");
  let file = toCoreFile(obj, filename, blob.size);
  if (file.ready || opts.waitReady === false) return file;
  return pollUntilReady(client, token, file, opts);
}

/** Polls fetch_files until the file is ready (§9.2): interval, count and overall time are configured. */
export async function pollUntilReady(
  client: CoreClient,
  token: string,
  file: CoreFile,
  opts: { signal?: AbortSignal; proxy?: ProxySpec; pollTimeoutMs?: number },
): Promise<CoreFile> {
  const w = client.wire;
  const deadline = Date.now() + (opts.pollTimeoutMs ?? w.file_poll_timeout_ms);
  for (let i = 0; i < w.file_poll_max && Date.now() < deadline; i++) {
    await Bun.sleep(Math.min(w.file_poll_interval_ms, Math.max(0, deadline - Date.now())));
    const data = await client.call({ method: "GET", path: `${PATHS.fetchFiles}?file_ids=${encodeURIComponent(file.id)}`, token, signal: opts.signal, proxy: opts.proxy });
    const obj = fileObjectOf(data, file.id);
    if (!obj) continue;
    if (failed(obj)) throw new CoreError("upstream_error", "core could not process the file");
    const next = toCoreFile(obj, file.filename, file.bytes);
    if (next.ready) return next;
    file = next;
  }
  throw new CoreError("upstream_error", "core did not finish processing the file in time");
}
