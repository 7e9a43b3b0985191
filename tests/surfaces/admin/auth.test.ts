import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../../helpers/app";
import { GatewayError } from "../../../src/util/gateway-error";

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");

async function login(t: Awaited<ReturnType<typeof makeTestApp>>, body: Record<string, unknown> = { admin_key: "test-admin-key" }) {
  return t.req("/admin/login", { method: "POST", json: body });
}

describe("admin login and JWT (D5.5–D5.9)", () => {
  test("login with the admin key returns a JWT that /admin/verify accepts", async () => {
    const t = await makeTestApp();
    const r = await login(t);
    expect(r.status).toBe(200);
    const body = await r.json();
    expect(body).toMatchObject({ success: true, expires_in: 86400 });
    const [h, p] = body.token.split(".");
    expect(JSON.parse(Buffer.from(h, "base64url").toString())).toEqual({ alg: "HS256", typ: "JWT" });
    expect(Object.keys(JSON.parse(Buffer.from(p, "base64url").toString())).sort()).toEqual(["exp", "iat", "role", "va"]);
    const v = await t.req("/admin/verify", { headers: { Authorization: `Bearer ${body.token}` } });
    expect(v.status).toBe(200);
    expect(await v.json()).toMatchObject({ valid: true, expires_at: body.expires_at });
  });

  test("verify accepts only a JWT, not the admin key", async () => {
    const t = await makeTestApp();
    const r = await t.req("/admin/verify", { headers: { Authorization: "Bearer test-admin-key" } });
    expect(r.status).toBe(401);
  });

  test("a wrong key is 401 with the fixed detail; 10 failures from one IP are throttled with Retry-After", async () => {
    const t = await makeTestApp();
    const r = await login(t, { admin_key: "wrong" });
    expect(r.status).toBe(401);
    expect(await r.json()).toEqual({ detail: "Invalid admin credentials" });
    for (let i = 0; i < 9; i++) await login(t, { admin_key: "wrong" });
    const blocked = await login(t);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("expire_hours sets the lifetime and an expired JWT gives 401", async () => {
    const t = await makeTestApp();
    const body = await (await login(t, { admin_key: "test-admin-key", expire_hours: 1 })).json();
    expect(body.expires_in).toBe(3600);
    const realNow = t.built.ctx.now;
    t.built.ctx.now = () => realNow() + 3601 * 1000;
    const r = await t.req("/admin/verify", { headers: { Authorization: `Bearer ${body.token}` } });
    expect(r.status).toBe(401);
  });

  test("forged, tampered and alg:none tokens are rejected", async () => {
    const t = await makeTestApp();
    const { token } = await (await login(t)).json();
    const [h, p, s] = token.split(".");
    const now = Math.floor(Date.now() / 1000);
    const none = `${b64({ alg: "none", typ: "JWT" })}.${b64({ iat: now, exp: now + 3600, role: "admin" })}.`;
    const tampered = `${h}.${b64({ iat: now, exp: now + 99999, role: "admin" })}.${s}`;
    const wrongRole = `${h}.${b64({ iat: now, exp: now + 3600, role: "user" })}.${s}`;
    for (const bad of [none, tampered, wrongRole, "abc", `${h}.${p}.AAAA`]) {
      const r = await t.req("/admin/verify", { headers: { Authorization: `Bearer ${bad}` } });
      expect(r.status).toBe(401);
      const r2 = await t.req("/admin/settings/password", { method: "POST", headers: { Authorization: `Bearer ${bad}` }, json: {} });
      expect(r2.status).toBe(401);
    }
  });

  test("setting a password invalidates earlier JWTs; the new password and the admin key both log in", async () => {
    const t = await makeTestApp();
    const { token } = await (await login(t)).json();
    const short = await t.req("/admin/settings/password", { method: "POST", headers: { Authorization: `Bearer ${token}` }, json: { new_password: "short" } });
    expect(short.status).toBe(400);
    const set = await t.req("/admin/settings/password", { method: "POST", headers: { Authorization: `Bearer ${token}` }, json: { new_password: "a-long-password" } });
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({ success: true, force_relogin: true });
    expect(t.built.ctx.config.get().admin?.password_hash).toStartWith("$argon2id$");
    const old = await t.req("/admin/verify", { headers: { Authorization: `Bearer ${token}` } });
    expect(old.status).toBe(401);
    const byPassword = await login(t, { password: "a-long-password" });
    expect(byPassword.status).toBe(200);
    const fresh = (await byPassword.json()).token;
    expect((await t.req("/admin/verify", { headers: { Authorization: `Bearer ${fresh}` } })).status).toBe(200);
    expect((await login(t)).status).toBe(200);
  });

  test("a legacy sha256 password hash verifies and is upgraded to argon2id at login", async () => {
    const hex = new Bun.CryptoHasher("sha256").update("legacy-password").digest("hex");
    const t = await makeTestApp({ config: { admin: { password_hash: `sha256:${hex}` } } });
    expect((await login(t, { password: "legacy-password" })).status).toBe(200);
    expect(t.built.ctx.config.get().admin?.password_hash).toStartWith("$argon2id$");
  });

  test("a shared store that cannot take the hash upgrade (503, issue 30) does not refuse the login", async () => {
    const hex = new Bun.CryptoHasher("sha256").update("legacy-password").digest("hex");
    const t = await makeTestApp({ config: { admin: { password_hash: `sha256:${hex}` } } });
    t.built.ctx.config.setGate(async () => {
      throw new GatewayError(503, "store_unavailable", "down", { retryAfter: 10 });
    });
    expect((await login(t, { password: "legacy-password" })).status).toBe(200);
    expect(t.built.ctx.config.get().admin?.password_hash).toBe(`sha256:${hex}`);
    expect(t.logs.some((l) => l.includes("admin password hash not upgraded"))).toBe(true);
  });
});

describe("GET /admin/version (D15.9)", () => {
  test("answers 200 with check_error when no feed is configured, and needs admin auth", async () => {
    const t = await makeTestApp();
    expect((await t.req("/admin/version")).status).toBe(401);
    const r = await t.req("/admin/version", { headers: { Authorization: "Bearer test-admin-key" } });
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ success: true, current_tag: expect.stringMatching(/^v/), check_error: "release feed not configured", has_update: false });
  });
});
