// Body limits (D3.4) and JSON parsing whatever the Content-Type (D3.5).
import { errors } from "./errors";
import { MAX_JSON_DEPTH, jsonDepthExceeds } from "./json-depth";
import { DeadlineReader, WHOLE_READ_MAX, readDeclaredBody } from "./body-deadline";
import { concatBytes } from "../util/bytes";

export const MiB = 1024 * 1024;
export const BUSINESS_BODY_LIMIT = 100 * MiB;
export const ADMIN_BODY_LIMIT = 10 * MiB;

const DIGITS = /^\d+$/;

/** Rejects a declared Content-Length over the limit before anything is read; the declared length, or -1. */
export function checkDeclaredLength(request: Request, limit: number): number {
  const declared = request.headers.get("content-length");
  if (declared === null || !DIGITS.test(declared)) return -1;
  const length = Number(declared);
  if (length > limit) throw errors.tooLarge(limit);
  return length;
}

/**
 * Reads the whole body, counting bytes as they arrive; a chunked body is aborted at limit + 1 byte, a body
 * that arrives too slowly at the deadline of body-deadline.ts (408): `timeoutMs`, BODY_TIMEOUT_MS unless the app
 * was built with another (ctx.bodyTimeoutMs, tests). A small body of declared length is read whole, under that
 * deadline's bound at its length (readDeclaredBody).
 */
export async function readBodyBytes(request: Request, limit: number, timeoutMs: number): Promise<Uint8Array> {
  const declared = checkDeclaredLength(request, limit);
  // Before `request.body`, which makes the stream a whole read does without.
  if (declared >= 0 && declared <= WHOLE_READ_MAX && !request.headers.has("transfer-encoding")) return readDeclaredBody(request, declared, timeoutMs);
  if (!request.body) return new Uint8Array(0);
  const reader = new DeadlineReader(request.body, timeoutMs);
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      // What was read is garbage from here on; drop it before the error travels.
      parts.length = 0;
      throw errors.tooLarge(limit);
    }
    parts.push(value);
  }
  return concatBytes(parts, total);
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** Parses a JSON object body: empty, invalid UTF-8, invalid JSON or a non-object → 400 invalid_json. */
export async function readJsonObject(request: Request, limit: number, timeoutMs: number): Promise<Record<string, unknown>> {
  const bytes = await readBodyBytes(request, limit, timeoutMs);
  if (bytes.byteLength === 0) throw errors.invalidJson("Request body is empty; a JSON object is required.");
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw errors.invalidJson("Request body is not valid UTF-8.");
  }
  checkDepth(bytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw errors.invalidJson(`Request body is not valid JSON: ${(e as Error).message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw errors.invalidJson("Request body must be a JSON object.");
  return value as Record<string, unknown>;
}

/** Admin bodies may be empty ({}), otherwise the same rules. */
export async function readOptionalJsonObject(request: Request, limit: number, timeoutMs: number): Promise<Record<string, unknown>> {
  const bytes = await readBodyBytes(request, limit, timeoutMs);
  if (bytes.byteLength === 0 || /^\s*$/.test(new TextDecoder().decode(bytes))) return {};
  checkDepth(bytes);
  let value: unknown;
  try {
    value = JSON.parse(strictUtf8.decode(bytes));
  } catch (e) {
    throw errors.invalidJson(`Request body is not valid JSON: ${(e as Error).message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw errors.invalidJson("Request body must be a JSON object.");
  return value as Record<string, unknown>;
}

function checkDepth(bytes: Uint8Array): void {
  if (jsonDepthExceeds(bytes)) throw errors.invalidJson(`Request body nests deeper than ${MAX_JSON_DEPTH} levels of arrays and objects.`);
}
