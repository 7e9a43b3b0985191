// sha256 helpers for fingerprints (D0.3) and constant-time comparisons.
import { createHash, timingSafeEqual } from "node:crypto";

export function sha256Hex(text: string | Uint8Array): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Constant-time equality of two strings, compared through their sha256 digests (equal length). */
export function safeEqual(a: string, b: string): boolean {
  const da = createHash("sha256").update(a).digest();
  const db = createHash("sha256").update(b).digest();
  return timingSafeEqual(da, db);
}

/** `caller:` + first 16 hex of sha256(credential): safe to log. */
export function callerFingerprint(credential: string): string {
  return `caller:${sha256Hex(credential).slice(0, 16)}`;
}
