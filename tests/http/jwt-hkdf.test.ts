// The admin JWT secret derived from the admin key (no SVC_JWT_SECRET) must stay the bytes node:crypto's hkdfSync
// gave before issue 35 replaced it with Bun's native HMAC: a token issued by an older binary keeps verifying.
import { expect, test } from "bun:test";
import { hkdfSync } from "node:crypto";
import { adminJwtSecret, hkdfSha256 } from "../../src/http/jwt";

const node = (key: string, salt: string, info: string) => new Uint8Array(hkdfSync("sha256", Buffer.from(key, "utf8"), Buffer.from(salt), Buffer.from(info), 32));

test("hkdfSha256 gives node:crypto's HKDF-SHA256 bytes, for keys short, long, empty and non-ASCII", () => {
  for (const key of ["", "k", "e2e-admin-key", "ключ-🔑", "x".repeat(200)]) {
    expect(hkdfSha256(new TextEncoder().encode(key), "svc-gateway/admin-jwt", "v1")).toEqual(node(key, "svc-gateway/admin-jwt", "v1"));
  }
  // A salt and info of their own: the construction, not just the one input the gateway uses.
  expect(hkdfSha256(new TextEncoder().encode("abc"), "other-salt", "info-2")).toEqual(node("abc", "other-salt", "info-2"));
  expect(hkdfSha256(new TextEncoder().encode("abc"), "other-salt", "info-2")).not.toEqual(node("abc", "svc-gateway/admin-jwt", "v1"));
});

test("adminJwtSecret: the admin key's derivation is 32 bytes, SVC_JWT_SECRET's UTF-8 bytes when set", () => {
  const derived = adminJwtSecret({ adminKey: "admin-key-1" });
  expect(derived.length).toBe(32);
  expect(derived).toEqual(node("admin-key-1", "svc-gateway/admin-jwt", "v1"));
  expect(adminJwtSecret({ adminKey: "admin-key-1", envSecret: "s3cret" })).toEqual(new TextEncoder().encode("s3cret"));
});
