// Uploaded files (core-upstream §5.8, §5.9, §9, §12.2): multipart validation, the observed file object,
// PENDING → SUCCESS (or FAILED) after `filePolls` polls, and ownership by the uploading account.
import { estimateTokens } from "../pipeline/token-estimate";
import { invalid, type JsonReply } from "./envelope";
import type { RngFamily } from "./rng";
import type { SimSwitches } from "./types";

export interface SimFile {
  id: string;
  account: string;
  name: string;
  size: number;
  type: string;
  /** UTF-8 text of text-like files (directives in referenced files, token_usage). */
  text: string;
  status: "PENDING" | "SUCCESS" | "FAILED";
  polls: number;
  insertedAt: number;
  updatedAt: number;
  modelType: string | null;
}

const MODEL_TYPES = new Set(["default", "expert", "vision"]);
const TEXT_LIKE = /^(text\/|application\/(json|xml|javascript|x-yaml|yaml|csv|x-ndjson))/;

export interface UploadSummary {
  file: { name: string; size: number; type: string } | null;
  fields: Record<string, string>;
  headers: { x_file_size: string | null; x_model_type: string | null; x_thinking_enabled: string | null };
}

/** Files kept at most (docs/simulator.md "Retention"): past that the oldest upload is forgotten. */
export const MAX_FILES = 1_000;

export class FileStore {
  private files = new Map<string, SimFile>();

  constructor(
    private readonly rng: RngFamily,
    private readonly maxKept = MAX_FILES,
  ) {}

  /** Parses and validates an upload; the summary is what the request log records. */
  async accept(req: Request, account: string, sw: SimSwitches, nowS: number): Promise<{ summary: UploadSummary; reply: JsonReply; file?: SimFile }> {
    const headers = { x_file_size: req.headers.get("x-file-size"), x_model_type: req.headers.get("x-model-type"), x_thinking_enabled: req.headers.get("x-thinking-enabled") };
    const summary: UploadSummary = { file: null, fields: {}, headers };
    if (!(req.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")) return { summary, reply: invalid("upload must be multipart/form-data") };
    const form = await req.formData().catch(() => null);
    if (!form) return { summary, reply: invalid("malformed multipart body") };
    const parts: File[] = [];
    for (const [k, v] of form.entries() as Iterable<[string, string | File]>) {
      if (typeof v === "string") summary.fields[k] = v.length > 200 ? `${v.slice(0, 200)}…` : v;
      else if (k === "file" && !parts.length) parts.push(v);
      else summary.fields[k] = `<file ${v.name}>`;
    }
    const file = parts[0];
    if (file) summary.file = { name: file.name, size: file.size, type: file.type };
    if (!file) return { summary, reply: invalid("missing file part") };
    const extra = Object.keys(summary.fields).filter((k) => k !== "purpose");
    if (extra.length) return { summary, reply: invalid(`unexpected multipart part: ${extra[0]}`) };
    if (!file.name) return { summary, reply: invalid("missing filename") };
    if (headers.x_file_size !== String(file.size)) return { summary, reply: invalid("x-file-size does not match the file") };
    if (headers.x_model_type !== null && !MODEL_TYPES.has(headers.x_model_type)) return { summary, reply: invalid("bad x-model-type") };
    if (headers.x_thinking_enabled !== "1") return { summary, reply: invalid("x-thinking-enabled must be 1") };
    const type = file.type || "application/octet-stream";
    const bytes = new Uint8Array(await file.arrayBuffer());
    const text = TEXT_LIKE.test(type) ? new TextDecoder().decode(bytes) : "";
    const f: SimFile = {
      id: `file-${this.rng.next("file").uuid()}`,
      account,
      name: file.name,
      size: file.size,
      type,
      text,
      status: sw.fileInstantReady ? "SUCCESS" : "PENDING",
      polls: 0,
      insertedAt: nowS,
      updatedAt: nowS,
      modelType: headers.x_model_type,
    };
    this.files.set(f.id, f);
    // A text file keeps its text (for directives and usage): a demo's uploads must not add up for ever.
    for (const id of this.files.keys()) {
      if (this.files.size <= this.maxKept) break;
      this.files.delete(id);
    }
    return { summary, reply: { status: 200, json: null }, file: f };
  }

  get(id: string): SimFile | undefined {
    return this.files.get(id);
  }

  ofAccount(account: string): SimFile[] {
    return [...this.files.values()].filter((f) => f.account === account);
  }

  /** One poll: pending files of this account move on after `filePolls` polls. Foreign ids are not listed. */
  poll(ids: string[], account: string, sw: SimSwitches, nowS: number): SimFile[] {
    const out: SimFile[] = [];
    for (const id of ids) {
      const f = this.files.get(id);
      if (!f || f.account !== account) continue;
      if (f.status === "PENDING" && ++f.polls >= sw.filePolls) {
        f.status = sw.fileFailure ? "FAILED" : "SUCCESS";
        f.updatedAt = nowS;
      }
      out.push(f);
    }
    return out;
  }

  /** The observed file object (§5.8). */
  object(f: SimFile): Record<string, unknown> {
    const done = f.status === "SUCCESS";
    return {
      id: f.id,
      status: f.status,
      file_name: f.name,
      previewable: false,
      file_size: f.size,
      from_share: false,
      model_kind: "NORMAL",
      token_usage: done ? estimateTokens(f.text) : null,
      error_code: f.status === "FAILED" ? "PARSE_FAILED" : null,
      inserted_at: f.insertedAt,
      updated_at: f.updatedAt,
      is_image: f.type.startsWith("image/"),
      audit_result: null,
      ...(done ? { signed_path: `/file?file_id=${f.id.slice(5)}&state=${f.id.slice(-8)}` } : {}),
    };
  }

  clear(): void {
    this.files.clear();
  }
}
