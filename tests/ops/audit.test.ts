// The audit log (issue 31): admin writes with actor, client address, route, outcome and what changed, secrets
// masked; sign-in success and failure; reads are not audited.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startLiveGateway, type LiveGateway } from "../helpers/live-gateway";
import { callerFingerprint } from "../../src/util/hash";

const ADMIN = { Authorization: "Bearer live-admin-key", "Content-Type": "application/json" };
let g: LiveGateway;

beforeAll(async () => {
  // Core is never called here: an unreachable address.
  g = await startLiveGateway({ config: { api_keys: [{ key: "sk-audit-existing", name: "existing" }] }, coreUrl: "http://127.0.0.1:9" });
});
afterAll(async () => {
  await g.stop();
});

const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = ADMIN) =>
  fetch(`${g.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });

async function audit(query = ""): Promise<any[]> {
  const r = await call("GET", `/admin/audit${query}`);
  expect(r.status).toBe(200);
  return (await r.json()).items;
}

describe("the audit log", () => {
  test("key, account, proxy and settings writes: actor, address, route, changes with secrets masked", async () => {
    expect((await call("POST", "/admin/keys", { key: "sk-audit-secret-value", name: "team-x", quota: { requests_per_minute: 5 } })).status).toBe(200);
    expect((await call("PUT", "/admin/keys/sk-audit-secret-value", { enabled: false })).status).toBe(200);
    expect((await call("POST", "/admin/accounts", { email: "ops@example.com", password: "account-password-1" })).status).toBe(200);
    expect((await call("POST", "/admin/proxies", { name: "p1", type: "http", host: "proxy.local", port: 8080, username: "u", password: "proxy-password-1" })).status).toBe(200);
    expect((await call("PUT", "/admin/settings", { metrics: { token: "metrics-token-secret" } })).status).toBe(200);
    await call("GET", "/admin/keys");

    const items = await audit();
    expect(items.map((i) => `${i.method} ${i.route}`)).toEqual([
      "PUT /admin/settings",
      "POST /admin/proxies",
      "POST /admin/accounts",
      "PUT /admin/keys/{key}",
      "POST /admin/keys",
    ]);
    for (const i of items) expect(i).toMatchObject({ actor: "admin_key", client_ip: "127.0.0.1", status: 200, ok: true });
    const fp = callerFingerprint("sk-audit-secret-value");
    const created = items[4];
    expect(created.path).toBe("/admin/keys");
    expect(created.changes).toContainEqual({ path: `api_keys[team-x ${fp}]`, before: null, after: "present" });
    expect(created.changes).toContainEqual({ path: `api_keys[team-x ${fp}].quota.requests_per_minute`, before: null, after: "5" });
    expect(items[3].path).toBe("/admin/keys/***");
    expect(items[3].changes).toEqual([{ path: `api_keys[team-x ${fp}].enabled`, before: null, after: "false" }]);
    expect(items[2].changes).toContainEqual({ path: "accounts[op***@example.com].password", before: null, after: "***" });
    expect(items[1].changes.find((c: { path: string }) => c.path.endsWith(".password"))).toMatchObject({ before: null, after: "***" });
    expect(items[0].changes).toContainEqual({ path: "metrics.token", before: null, after: "***" });
    const text = JSON.stringify(items);
    for (const secret of ["sk-audit-secret-value", "account-password-1", "proxy-password-1", "metrics-token-secret", "ops@example.com"]) expect(text).not.toContain(secret);
  });

  test("a changed secret says it changed, never to what", async () => {
    expect((await call("PUT", "/admin/settings", { metrics: { token: "metrics-token-other" } })).status).toBe(200);
    const [last] = await audit("?limit=1");
    expect(last.changes).toEqual([{ path: "metrics.token", before: "***", after: "***" }]);
  });

  test("sign-in success and failure, and a write refused for a bad credential, are audited as failures", async () => {
    const bad = await call("POST", "/admin/login", { admin_key: "wrong-key" }, { "Content-Type": "application/json" });
    expect(bad.status).toBe(401);
    const good = await call("POST", "/admin/login", { admin_key: "live-admin-key" }, { "Content-Type": "application/json" });
    expect(good.status).toBe(200);
    const { token } = await good.json();
    expect((await call("DELETE", "/admin/keys/sk-audit-existing", undefined, { Authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await call("DELETE", "/admin/keys/sk-audit-secret-value", undefined, { Authorization: "Bearer not-the-key" })).status).toBe(401);
    const items = await audit("?limit=4");
    expect(items.map((i) => [i.route, i.actor, i.ok])).toEqual([
      ["/admin/keys/{key}", "unknown", false],
      ["/admin/keys/{key}", "jwt", true],
      ["/admin/login", "sign-in", true],
      ["/admin/login", "sign-in", false],
    ]);
    expect(items[1].changes[0]).toMatchObject({ before: "present", after: null });
    expect(JSON.stringify(items)).not.toContain(token);
    expect((await audit("?ok=false")).length).toBe(2);
    expect((await audit("?actor=sign-in")).length).toBe(2);
  });
});
