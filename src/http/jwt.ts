// Admin JWT (D5.5 as revised): issued and verified with @elysiajs/jwt (the package the design names), HS256
// pinned. What the plugin does not check is here: the claims. A token is valid only if its role is admin,
// exp is in the future, iat ≤ now + 60 and `va` equals the current admin.jwt_valid_after_unix (0 when
// unset), so a password change (which moves jwt_valid_after_unix forward) fails every earlier token at once.
import { jwt } from "@elysiajs/jwt";

export interface AdminClaims {
  iat: number;
  exp: number;
  role: "admin";
  /** admin.jwt_valid_after_unix when the token was issued (0 when unset). */
  va: number;
}

export type JwtCheck =
  | { ok: true; claims: AdminClaims }
  | { ok: false; reason: "signature" | "role" | "expired" | "iat" | "revoked" | "lifetime" };

/**
 * The longest lifetime /admin/login issues (expire_hours ≤ 720), plus a minute of clock skew. A token whose exp
 * lies further ahead than this from now was not issued by /admin/login (issue 30 item 11: `exp: 1e308` with a
 * valid signature, from anyone who holds SVC_JWT_SECRET, would otherwise never expire and make /admin/verify
 * report an absurd remaining_seconds).
 */
export const MAX_JWT_LIFETIME_SEC = 720 * 3600 + 60;

/** SVC_JWT_SECRET's UTF-8 bytes, else HKDF-SHA256(admin key, "svc-gateway/admin-jwt", "v1"): fixed for the process. */
export function adminJwtSecret(opts: { envSecret?: string; adminKey: string }): Uint8Array {
  if (opts.envSecret) return new TextEncoder().encode(opts.envSecret);
  return hkdfSha256(new TextEncoder().encode(opts.adminKey), "svc-gateway/admin-jwt", "v1");
}

/**
 * HKDF-SHA256 (RFC 5869) for one 32-byte block: extract, then expand with counter 1. The same bytes as node:crypto's
 * hkdfSync("sha256", ikm, salt, info, 32) (tests/http/jwt-hkdf.test.ts), with Bun's native HMAC: node:crypto
 * costs a cold start ≈ 15 ms to load (issue 35).
 */
export function hkdfSha256(ikm: Uint8Array, salt: string, info: string): Uint8Array {
  const prk = new Bun.CryptoHasher("sha256", salt).update(ikm).digest();
  const infoBytes = new TextEncoder().encode(info);
  const block = new Uint8Array(infoBytes.length + 1);
  block.set(infoBytes);
  block[infoBytes.length] = 1;
  return new Uint8Array(new Bun.CryptoHasher("sha256", prk).update(block).digest());
}

export function adminJwtPlugin(secret: Uint8Array) {
  return jwt({ name: "adminJwt", secret, alg: "HS256", typ: "JWT" });
}

export type AdminJwt = ReturnType<typeof adminJwtPlugin>["decorator"]["adminJwt"];

/**
 * The plugin verifies signature and algorithm (only HS256: `none` and every other alg, HS512 with the same
 * secret included, fail); the time claims are checked against the gateway's clock (ctx.now), so its
 * verification runs at the epoch and leaves exp to checkClaims. A token the plugin refuses is a guess.
 */
export async function verifyAdminJwt(signer: AdminJwt, token: string, nowSec: number, validAfterUnix: number): Promise<JwtCheck> {
  const payload = await signer.verify(token, { algorithms: ["HS256"], currentDate: new Date(0) });
  if (!payload) return { ok: false, reason: "signature" };
  return checkClaims(payload, nowSec, validAfterUnix);
}

export function checkClaims(claims: Record<string, unknown>, nowSec: number, validAfterUnix: number): JwtCheck {
  if (claims.role !== "admin") return { ok: false, reason: "role" };
  if (typeof claims.exp !== "number" || claims.exp <= nowSec) return { ok: false, reason: "expired" };
  if (!Number.isSafeInteger(claims.exp) || claims.exp > nowSec + MAX_JWT_LIFETIME_SEC) return { ok: false, reason: "lifetime" };
  if (typeof claims.iat !== "number" || !Number.isFinite(claims.iat) || claims.iat > nowSec + 60) return { ok: false, reason: "iat" };
  if (claims.exp - claims.iat > MAX_JWT_LIFETIME_SEC) return { ok: false, reason: "lifetime" };
  if (claims.va !== validAfterUnix) return { ok: false, reason: "revoked" };
  return { ok: true, claims: { iat: claims.iat, exp: claims.exp, role: "admin", va: validAfterUnix } };
}

/** Signs a token for `hours`; iat is the signing time (the plugin sets it), va the current valid-after mark. */
export function signAdminJwt(signer: AdminJwt, exp: number, validAfterUnix: number): Promise<string> {
  return signer.sign({ role: "admin", va: validAfterUnix, exp });
}
