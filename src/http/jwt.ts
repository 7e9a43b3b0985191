// Admin JWT (D5.5): HS256 only, claims exactly iat/exp/role, secret from SVC_JWT_SECRET or derived by HKDF
// from the admin key and the password hash, so that changing either rotates every issued token.
// Written here rather than through @elysiajs/jwt because the secret changes at run time and the
// validity rules (alg pinning, iat window, jwt_valid_after_unix) are stricter than that plugin checks.
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";

export interface AdminClaims {
  iat: number;
  exp: number;
  role: "admin";
}

const b64url = (buf: Buffer | string) => Buffer.from(buf).toString("base64url");

export function deriveJwtSecret(opts: { envSecret?: string; adminKey: string; passwordHash?: string }): Buffer {
  if (opts.envSecret) return Buffer.from(opts.envSecret, "utf8");
  const ikm = Buffer.concat([Buffer.from(opts.adminKey, "utf8"), Buffer.from([0]), Buffer.from(opts.passwordHash ?? "", "utf8")]);
  return Buffer.from(hkdfSync("sha256", ikm, Buffer.from("svc-gateway/admin-jwt"), Buffer.from("v1"), 32));
}

export function signAdminJwt(claims: AdminClaims, secret: Buffer): string {
  const head = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const body = b64url(JSON.stringify({ iat: claims.iat, exp: claims.exp, role: claims.role }));
  const sig = createHmac("sha256", secret).update(`${head}.${body}`).digest();
  return `${head}.${body}.${b64url(sig)}`;
}

export type JwtCheck = { ok: true; claims: AdminClaims } | { ok: false; reason: string };

export function verifyAdminJwt(token: string, secret: Buffer, nowSec: number, validAfterUnix?: number | null): JwtCheck {
  const parts = token.split(".");
  if (parts.length !== 3) return { ok: false, reason: "malformed" };
  const [h, p, s] = parts as [string, string, string];
  let header: any, claims: any;
  try {
    header = JSON.parse(Buffer.from(h, "base64url").toString("utf8"));
    claims = JSON.parse(Buffer.from(p, "base64url").toString("utf8"));
  } catch {
    return { ok: false, reason: "malformed" };
  }
  if (!header || header.alg !== "HS256") return { ok: false, reason: "alg" };
  const expected = createHmac("sha256", secret).update(`${h}.${p}`).digest();
  const given = Buffer.from(s, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "signature" };
  if (!claims || claims.role !== "admin") return { ok: false, reason: "role" };
  if (typeof claims.exp !== "number" || claims.exp <= nowSec) return { ok: false, reason: "expired" };
  if (typeof claims.iat !== "number" || claims.iat > nowSec + 60) return { ok: false, reason: "iat" };
  if (validAfterUnix && claims.iat <= validAfterUnix) return { ok: false, reason: "revoked" };
  return { ok: true, claims: { iat: claims.iat, exp: claims.exp, role: "admin" } };
}
