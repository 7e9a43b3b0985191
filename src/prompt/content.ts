// Content normalisation shared by the surfaces (svcml-and-prompts.md §3.1, §3.12, D8.14): text kept, inline
// data collected as InlineFiles for upload, explicit file ids kept, other JSON values as compact JSON text.
import { GatewayError } from "../util/gateway-error";
import type { InlineFile, ToolDef } from "../pipeline/types";

export const MAX_INLINE_FILES = 50;

const EXT_BY_MIME: Record<string, string> = {
  "image/png": ".png",
  "image/jpeg": ".jpg",
  "image/gif": ".gif",
  "image/webp": ".webp",
  "application/pdf": ".pdf",
  "text/plain": ".txt",
};


/** Collects the inline files of one request, deduplicated by content hash, at most MAX_INLINE_FILES (§3.12). */
export class FileCollector {
  readonly files: InlineFile[] = [];
  readonly fileIds: string[] = [];
  private seen = new Set<string>();

  add(data: Uint8Array, mime: string, filename?: string): void {
    const key = new Bun.CryptoHasher("sha256").update(data).digest("hex");
    if (this.seen.has(key)) return;
    if (this.files.length >= MAX_INLINE_FILES)
      throw new GatewayError(400, "too_many_files", `At most ${MAX_INLINE_FILES} inline files or images per request.`);
    this.seen.add(key);
    const kind = mime.startsWith("image/") ? "image" : "file";
    this.files.push({ data, mime, filename: filename || `${kind}-${this.files.length + 1}${EXT_BY_MIME[mime] ?? ""}` });
  }

  /** A data: URL is decoded and collected (true); anything else is not (false). */
  addDataUrl(url: unknown, filename?: string): boolean {
    const d = decodeDataUrl(url);
    if (!d) return false;
    this.add(d.data, d.mime, filename);
    return true;
  }

  addBase64(data: unknown, mime: unknown, filename?: string): boolean {
    if (typeof data !== "string" || data === "") return false;
    if (data.startsWith("data:")) return this.addDataUrl(data, filename);
    this.add(base64Bytes(data), typeof mime === "string" && mime ? mime : "application/octet-stream", filename);
    return true;
  }

  addId(id: unknown): void {
    if (typeof id === "string" && id && !this.fileIds.includes(id)) this.fileIds.push(id);
  }

  /** The request-level file id lists (`ref_file_ids`, `file_ids`, `attachments`), in that order. */
  addRequestIdLists(body: Record<string, unknown>): void {
    this.addIdList(body.ref_file_ids);
    this.addIdList(body.file_ids);
    this.addIdList(body.attachments);
  }

  /** One such list: strings or objects with a `file_id` / `id`. */
  private addIdList(list: unknown): void {
    if (!Array.isArray(list)) return;
    for (const x of list) {
      if (typeof x === "string") this.addId(x);
      else if (x && typeof x === "object") this.addId((x as Record<string, unknown>).file_id ?? (x as Record<string, unknown>).id);
    }
  }
}

export function base64Bytes(s: string): Uint8Array {
  return Uint8Array.from(Buffer.from(s.replace(/\s+/g, ""), "base64"));
}

export function decodeDataUrl(url: unknown): { data: Uint8Array; mime: string } | null {
  if (typeof url !== "string") return null;
  const m = /^data:([^;,]*)((?:;[^;,]*)*?)(;base64)?,(.*)$/s.exec(url);
  if (!m) return null;
  const mime = m[1] || "application/octet-stream";
  if (m[3]) return { data: base64Bytes(m[4]!), mime };
  let text: string;
  try {
    text = decodeURIComponent(m[4]!);
  } catch {
    text = m[4]!;
  }
  return { data: new TextEncoder().encode(text), mime };
}

/** D8.14: a remote image is never fetched; core sees where it was. */
export function remoteImageText(url: unknown): string {
  return typeof url === "string" && url.trim() ? `[image: ${url.trim()}]` : "";
}

/** §3.1: a string as is, null empty, any other JSON value its compact JSON text. */
export function asText(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v;
  return JSON.stringify(v);
}

export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Tools in the function form {type:"function", function:{…}} or flat {name, description, parameters | …}. */
export function readTools(raw: unknown): ToolDef[] {
  if (!Array.isArray(raw)) return [];
  const out: ToolDef[] = [];
  for (const t of raw) {
    if (!isObject(t)) continue;
    const f = isObject(t.function) ? t.function : t;
    if (typeof f.name !== "string" || !f.name.trim()) continue;
    const parameters = f.parameters ?? f.input_schema ?? f.inputSchema ?? f.schema ?? f.parametersJsonSchema;
    out.push({ name: f.name, ...(typeof f.description === "string" ? { description: f.description } : {}), ...(parameters !== undefined ? { parameters } : {}) });
  }
  return out;
}

/** core-upstream.md §5.6: the sampling fields copied verbatim into core's completion body. */
export const SAMPLING_FIELDS = ["temperature", "top_p", "max_tokens", "max_completion_tokens", "presence_penalty", "frequency_penalty", "stop"] as const;

export function samplingOf(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of SAMPLING_FIELDS) if (body[k] !== undefined && body[k] !== null) out[k] = body[k];
  return out;
}
