// A streaming multipart/form-data reader for POST /v1/files (D10.4, D3.4): the `file` part goes straight to a
// temporary file on disk while the body is read and counted, so an upload of up to 100 MiB is never held whole
// in memory; the small text parts (purpose, model) are kept as strings. Delimiters split across chunks are
// found by keeping only the last (delimiter length − 1) bytes between chunks.
import { mkdtempSync } from "node:fs";
import { tempDir } from "../../util/host";
import { join } from "node:path";
import { errors } from "../../http/errors";
import { fsp } from "../../util/fs-promises";
import { GatewayError } from "../../util/gateway-error";
import { invalidRequest } from "../../util/invalid-request";
import { BODY_TIMEOUT_MS, DeadlineReader } from "../../http/body-deadline";

export interface SpooledUpload {
  path: string;
  filename: string;
  mime: string;
  size: number;
  fields: Record<string, string>;
  cleanup(): Promise<void>;
}

const CRLF2 = Buffer.from("\r\n\r\n");
const MAX_FIELD = 64 * 1024;

export function boundaryOf(contentType: string): string | null {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

function partHeaders(raw: string): { name: string; filename: string | null; type: string } {
  const disp = /content-disposition:[^\r\n]*/i.exec(raw)?.[0] ?? "";
  const name = /\bname="([^"]*)"/i.exec(disp)?.[1] ?? "";
  const filename = /\bfilename="([^"]*)"/i.exec(disp)?.[1] ?? null;
  const type = /content-type:\s*([^\r\n]+)/i.exec(raw)?.[1]?.trim() ?? "application/octet-stream";
  return { name, filename, type };
}

export async function spoolMultipart(
  body: ReadableStream<Uint8Array>,
  contentType: string,
  limit: number,
  timeoutMs = BODY_TIMEOUT_MS,
): Promise<SpooledUpload> {
  const boundary = boundaryOf(contentType);
  if (!boundary) throw invalidRequest("The multipart body has no boundary.");
  const { open, rm } = await fsp();
  const dir = mkdtempSync(join(tempDir(), "svc-upload-"));
  const path = join(dir, "file");
  const out = await open(path, "w", 0o600);
  const cleanup = async () => {
    await out.close().catch(() => {});
    await rm(dir, { recursive: true, force: true }).catch(() => {});
  };
  const delim = Buffer.from(`\r\n--${boundary}`);
  const fields: Record<string, string> = {};
  let buf = Buffer.from("\r\n");
  let total = 0;
  let state: "preamble" | "headers" | "body" | "done" = "preamble";
  let part = { name: "", filename: null as string | null, type: "" };
  let field: Buffer[] = [];
  let fieldSize = 0;
  let file: { filename: string; mime: string; size: number } | null = null;

  const emit = async (chunk: Buffer) => {
    if (chunk.length === 0) return;
    if (part.name === "file" && part.filename !== null) {
      await out.write(chunk);
      file!.size += chunk.length;
    } else if ((fieldSize += chunk.length) <= MAX_FIELD) field.push(chunk);
  };

  try {
    const reader = new DeadlineReader(body, timeoutMs);
    for (;;) {
      const { done, value } = await reader.read();
      if (value) {
        total += value.byteLength;
        if (total > limit) {
          await reader.cancel();
          throw errors.tooLarge(limit);
        }
        buf = buf.length ? Buffer.concat([buf, value]) : Buffer.from(value);
      }
      for (;;) {
        if (state === "preamble" || state === "body") {
          const at = buf.indexOf(delim);
          if (at < 0) {
            // Keep a tail that could be the start of a delimiter; the rest is part content.
            const keep = Math.min(buf.length, delim.length - 1);
            if (state === "body") await emit(buf.subarray(0, buf.length - keep));
            buf = buf.subarray(buf.length - keep);
            break;
          }
          if (state === "body") {
            await emit(buf.subarray(0, at));
            if (!(part.name === "file" && part.filename !== null) && part.name) fields[part.name] = Buffer.concat(field).toString("utf8");
          }
          buf = buf.subarray(at + delim.length);
          state = "headers";
          continue;
        }
        if (state === "headers") {
          if (buf.length < 2) break;
          if (buf[0] === 0x2d && buf[1] === 0x2d) {
            state = "done";
            break;
          }
          const end = buf.indexOf(CRLF2);
          if (end < 0) {
            if (buf.length > 16 * 1024) throw invalidRequest("A multipart part has oversized headers.");
            break;
          }
          part = partHeaders(buf.subarray(0, end).toString("utf8"));
          field = [];
          fieldSize = 0;
          if (part.name === "file" && part.filename !== null) {
            if (file) throw invalidRequest("Only one `file` part is accepted.");
            file = { filename: part.filename, mime: part.type, size: 0 };
          }
          buf = buf.subarray(end + CRLF2.length);
          state = "body";
          continue;
        }
        break;
      }
      if (done || state === "done") break;
    }
    if (!file) throw new GatewayError(400, "missing_file", "The multipart body has no `file` part.", { param: "file" });
    await out.close();
    return { path, filename: file.filename, mime: file.mime, size: file.size, fields, cleanup };
  } catch (e) {
    await cleanup();
    throw e;
  }
}
