// Content normalisation shared by the surfaces (svcml-and-prompts.md §3.1, §3.12): text parts kept, inline
// data uploaded (collected as InlineFiles), remote URLs dropped, other JSON values as compact JSON text.
import { GatewayError } from "../http/errors";
import type { InlineFile, ToolDef } from "../pipeline/types";

export const MAX_INLINE_FILES = 50;

export class FileCollector {
  readonly files: InlineFile[] = [];
  readonly fileIds: string[] = [];
  private seen = new Set<string>();

  add(data: Uint8Array, mime: string, filename: string): void {
    const key = new Bun.CryptoHasher("sha256").update(data).digest("hex");
    if (this.seen.has(key)) return;
    this.seen.add(key);
    if (this.files.length >= MAX_INLINE_FILES) throw new GatewayError(400, "too_many_files", `At most ${MAX_INLINE_FILES} inline files or images per request.`);
    this.files.push({ data, mime, filename });
  }

  /** A data: URL (uploaded) or anything else (a remote URL: dropped, never fetched). */
  addUrl(url: unknown, fallbackName: string): void {
    if (typeof url !== "string") return;
    const m = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(url);
    if (!m) return;
    const mime = m[1] || "application/octet-stream";
    const bytes = m[2] ? Uint8Array.from(Buffer.from(m[3]!, "base64")) : new TextEncoder().encode(decodeURIComponent(m[3]!));
    this.add(bytes, mime, fallbackName);
  }

  addBase64(data: unknown, mime: unknown, name: string): void {
    if (typeof data !== "string") return;
    this.add(Uint8Array.from(Buffer.from(data, "base64")), typeof mime === "string" && mime ? mime : "application/octet-stream", name);
  }

  addId(id: unknown): void {
    if (typeof id === "string" && id && !this.fileIds.includes(id)) this.fileIds.push(id);
  }
}

export function asText(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v;
  return JSON.stringify(v);
}

/** Tools in the function form {type:"function", function:{…}} or flat {name, description, parameters | input_schema | …}. */
export function readTools(raw: unknown): ToolDef[] {
  if (!Array.isArray(raw)) return [];
  const out: ToolDef[] = [];
  for (const t of raw) {
    if (!t || typeof t !== "object") continue;
    const o = t as Record<string, any>;
    const f = o.type === "function" && o.function && typeof o.function === "object" ? o.function : o;
    if (typeof f.name !== "string" || !f.name) continue;
    out.push({ name: f.name, description: typeof f.description === "string" ? f.description : undefined, parameters: f.parameters ?? f.input_schema ?? f.inputSchema ?? f.schema ?? f.parametersJsonSchema });
  }
  return out;
}

export const SAMPLING_FIELDS = ["temperature", "top_p", "max_tokens", "max_completion_tokens", "presence_penalty", "frequency_penalty", "stop"];

export function samplingOf(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of SAMPLING_FIELDS) if (body[k] !== undefined) out[k] = body[k];
  return out;
}
