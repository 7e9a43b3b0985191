// Admin password hashes (D5.7): argon2id PHC strings; legacy sha256:<hex> verified in constant time.
// Bun's native hasher, not node:crypto: that module costs a cold start ≈ 15 ms to load (issue 35).

export async function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, { algorithm: "argon2id" });
}

export async function verifyPassword(password: string, stored: string): Promise<{ ok: boolean; legacy: boolean }> {
  if (stored.startsWith("sha256:")) {
    const want = Buffer.from(stored.slice(7).toLowerCase(), "hex");
    const got = Bun.CryptoHasher.hash("sha256", password);
    return { ok: want.length === got.length && crypto.timingSafeEqual(want, got), legacy: true };
  }
  try {
    return { ok: await Bun.password.verify(password, stored), legacy: false };
  } catch {
    return { ok: false, legacy: false };
  }
}
