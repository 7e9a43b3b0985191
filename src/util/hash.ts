// sha256 helpers for fingerprints (D0.3) and constant-time comparisons.
// Bun's native hasher, not node:crypto: that module costs a cold start ≈ 15 ms to load (issue 35).

export function sha256Hex(text: string | Uint8Array): string {
  return Bun.CryptoHasher.hash("sha256", text, "hex");
}

/** Constant-time equality of two strings, compared through their sha256 digests (equal length). */
export function safeEqual(a: string, b: string): boolean {
  return crypto.timingSafeEqual(Bun.CryptoHasher.hash("sha256", a), Bun.CryptoHasher.hash("sha256", b));
}

/** `caller:` + first 16 hex of sha256(credential): safe to log. */
export function callerFingerprint(credential: string): string {
  return `caller:${sha256Hex(credential).slice(0, 16)}`;
}
