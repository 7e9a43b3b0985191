// The admin JWT rules of D5.5 (as revised) as one table of cases, run against the in-process gateway and the
// compiled binary alike. Tokens are crafted here with node:crypto, independently of the gateway's signer.
import { expect, test } from "bun:test";
import { createHmac, hkdfSync } from "node:crypto";

const b64 = (v: unknown) => Buffer.from(typeof v === "string" ? v : JSON.stringify(v)).toString("base64url");

/** The secret D5.5 defines for an admin key without SVC_JWT_SECRET. */
export function secretFor(adminKey: string): Buffer {
  return Buffer.from(hkdfSync("sha256", Buffer.from(adminKey), Buffer.from("svc-gateway/admin-jwt"), Buffer.from("v1"), 32));
}

export function craft(header: Record<string, unknown>, claims: Record<string, unknown>, secret: Buffer, hash = "sha256"): string {
  const head = `${b64(header)}.${b64(claims)}`;
  return `${head}.${createHmac(hash, secret).update(head).digest("base64url")}`;
}

export interface JwtTarget {
  url: string;
  adminKey: string;
}

async function verify(t: JwtTarget, token: string): Promise<number> {
  return (await fetch(`${t.url}/admin/verify`, { headers: { Authorization: `Bearer ${token}` } })).status;
}

async function login(t: JwtTarget, body: Record<string, unknown>): Promise<string> {
  const r = await fetch(`${t.url}/admin/login`, { method: "POST", body: JSON.stringify(body) });
  expect(r.status).toBe(200);
  return (await r.json()).token;
}

/** Registers the cases; `target` is read when they run (the gateway starts in a beforeAll). */
export function adminJwtCases(target: () => JwtTarget): void {
  const now = () => Math.floor(Date.now() / 1000);
  const hs256 = { alg: "HS256", typ: "JWT" };
  const good = () => ({ iat: now(), exp: now() + 3600, role: "admin", va: 0 });

  test("a token crafted with the documented secret and claims is accepted (the rules are the spec's, not the plugin's)", async () => {
    expect(await verify(target(), craft(hs256, good(), secretFor(target().adminKey)))).toBe(200);
  });

  const cases: [string, () => string][] = [
    ["forged: another secret", () => craft(hs256, good(), secretFor("not-the-key"))],
    ["alg none", () => `${b64({ alg: "none", typ: "JWT" })}.${b64(good())}.`],
    ["another alg with the right secret (HS512)", () => craft({ alg: "HS512", typ: "JWT" }, good(), secretFor(target().adminKey), "sha512")],
    ["expired", () => craft(hs256, { ...good(), exp: now() - 1 }, secretFor(target().adminKey))],
    ["iat more than 60 s ahead", () => craft(hs256, { ...good(), iat: now() + 120 }, secretFor(target().adminKey))],
    ["role other than admin", () => craft(hs256, { ...good(), role: "user" }, secretFor(target().adminKey))],
    ["va other than the current mark", () => craft(hs256, { ...good(), va: 5 }, secretFor(target().adminKey))],
    ["no va claim", () => craft(hs256, { iat: now(), exp: now() + 3600, role: "admin" }, secretFor(target().adminKey))],
    ["not a JWT", () => "abc"],
    // Issue 30 item 11: a valid signature does not make a token immortal.
    ["exp 1e308", () => craft(hs256, { ...good(), exp: 1e308 }, secretFor(target().adminKey))],
    ["exp a non-integer", () => craft(hs256, { ...good(), exp: now() + 3600.5 }, secretFor(target().adminKey))],
    ["lifetime over 720 h", () => craft(hs256, { ...good(), exp: now() + 721 * 3600 }, secretFor(target().adminKey))],
    ["iat long ago, so exp − iat is over 720 h", () => craft(hs256, { ...good(), iat: now() - 30 * 86400 }, secretFor(target().adminKey))],
  ];
  test.each(cases)("%s → 401", async (_name, make) => {
    expect(await verify(target(), make())).toBe(401);
  });

  test("the longest token /admin/login issues (720 h) is accepted, and verify reports at most its lifetime", async () => {
    const t = target();
    const token = await login(t, { admin_key: t.adminKey, expire_hours: 720 });
    const r = await fetch(`${t.url}/admin/verify`, { headers: { Authorization: `Bearer ${token}` } });
    expect(r.status).toBe(200);
    const body = await r.json();
    expect(body.remaining_seconds).toBeGreaterThan(719 * 3600);
    expect(body.remaining_seconds).toBeLessThanOrEqual(720 * 3600);
  });

  test("a token issued before a password change → 401; one issued after → 200, at once", async () => {
    const t = target();
    const before = await login(t, { admin_key: t.adminKey });
    expect(await verify(t, before)).toBe(200);
    const set = await fetch(`${t.url}/admin/settings/password`, { method: "POST", headers: { Authorization: `Bearer ${t.adminKey}` }, body: JSON.stringify({ new_password: "a-long-password-1" }) });
    expect(set.status).toBe(200);
    const mark = (await set.json()).jwt_valid_after_unix as number;
    expect(await verify(t, before)).toBe(401);
    const after = await login(t, { password: "a-long-password-1" });
    expect(await verify(t, after)).toBe(200);
    expect(JSON.parse(Buffer.from(after.split(".")[1]!, "base64url").toString()).va).toBe(mark);
    // A second change within the same second still moves the mark forward, so `after` fails too.
    await fetch(`${t.url}/admin/settings/password`, { method: "POST", headers: { Authorization: `Bearer ${t.adminKey}` }, body: JSON.stringify({ new_password: "a-long-password-2" }) });
    expect(await verify(t, after)).toBe(401);
  });
}
