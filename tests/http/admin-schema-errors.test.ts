// Issue 18 item 3, admin side: one bad value per schema field of the admin bodies with a field schema;
// each answer is 400 {detail} naming the field, nothing is written, and without a credential it is 401 first.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startLiveGateway, TEST_ADMIN_KEY, type LiveGateway } from "../helpers/gateway";

let g: LiveGateway;
beforeAll(async () => {
  g = await startLiveGateway({ env: { SVC_CORE_BASE_URL: "http://127.0.0.1:9" }, config: { keys: ["sk-existing"] } });
});
afterAll(() => g.stop());

const CASES: [string, string, unknown, string][] = [
  ["POST", "/admin/keys", {}, "key is required."],
  ["POST", "/admin/keys", { key: "has space" }, "key must be a key of 1 to 256 characters with no whitespace."],
  ["POST", "/admin/keys", { key: "" }, "key must be a key of 1 to 256 characters with no whitespace."],
  ["POST", "/admin/keys", { key: 42 }, "key must be a key of 1 to 256 characters with no whitespace."],
  ["POST", "/admin/keys", { key: "sk-new", name: 5 }, "name must be a string or null."],
  ["POST", "/admin/keys", { key: "sk-new", remark: [] }, "remark must be a string or null."],
  ["PUT", "/admin/keys/sk-existing", { name: {} }, "name must be a string or null."],
  ["POST", "/admin/accounts", { email: 5, password: "p" }, "email must be a string or null."],
  ["POST", "/admin/accounts", { token: ["t"] }, "token must be a string or null."],
  ["PUT", "/admin/accounts/a@x.com", { name: 5 }, "name must be a string or null."],
  ["PUT", "/admin/accounts/a@x.com/proxy", { proxy_id: 1 }, "proxy_id must be a string or null."],
  ["POST", "/admin/accounts/test", { identifier: 1 }, "identifier must be a string or null."],
  ["POST", "/admin/accounts/test-all", { model: false }, "model must be a string or null."],
  ["POST", "/admin/test", { message: {} }, "message must be a string or null."],
  ["POST", "/admin/host/sync", { auto_validate: "yes" }, "auto_validate must be a boolean or null."],
  ["POST", "/admin/proxies", { host: "h", port: 0 }, "port must be an integer between 1 and 65535."],
  ["POST", "/admin/proxies", { host: "h", port: "99999" }, "port must be an integer between 1 and 65535."],
  ["POST", "/admin/proxies", { host: "h", port: "eighty" }, "port must match ^\\s*\\d+\\s*$."],
  ["POST", "/admin/proxies", { host: 7, port: 80 }, "host must be a string or null."],
  ["POST", "/admin/proxies", { host: "h", port: 80, username: 1 }, "username must be a string or null."],
  ["POST", "/admin/proxies/test", { proxy_id: 3 }, "proxy_id must be a string or null."],
  ["POST", "/admin/config", { api_keys: "sk-a" }, "api_keys must be an array."],
  ["POST", "/admin/config", { accounts: {} }, "accounts must be an array."],
  ["POST", "/admin/config", { model_aliases: [] }, "model_aliases must be an object."],
  ["POST", "/admin/import", { keys: "sk-a" }, "keys must be an array or null."],
  ["PUT", "/admin/chat-history/settings", {}, "limit is required."],
  ["PUT", "/admin/chat-history/settings", { limit: 1001 }, "limit must be at most 1000."],
  ["PUT", "/admin/chat-history/settings", { limit: 1.5 }, "limit must be an integer."],
  ["POST", "/admin/dev/raw-samples/save", { chain_key: 5 }, "chain_key must be a string or null."],
  ["POST", "/admin/dev/raw-samples/save", { sample_id: [] }, "sample_id must be a string or null."],
  ["POST", "/admin/dev/raw-samples/capture", { stream: "no" }, "stream must be a boolean or null."],
  ["PUT", "/admin/settings", { runtime: "fast" }, "runtime must be an object."],
  ["PUT", "/admin/settings", { model_aliases: "x" }, "model_aliases must be an object."],
  ["PUT", "/admin/settings", { admin: { jwt_expire_hours: 0 } }, "admin.jwt_expire_hours must be at least 1."],
  ["PUT", "/admin/settings", { admin: { jwt_expire_hours: 721 } }, "admin.jwt_expire_hours must be at most 720."],
];

describe("admin bodies: one bad value per field → 400 {detail}", () => {
  test.each(CASES)("%s %s %j", async (method, path, body, detail) => {
    const before = JSON.stringify(g.gw.ctx.config.get());
    const r = await fetch(g.url + path, { method, headers: { Authorization: `Bearer ${TEST_ADMIN_KEY}` }, body: JSON.stringify(body) });
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ detail });
    expect(JSON.stringify(g.gw.ctx.config.get())).toBe(before);
  });

  test.each(CASES)("without a credential %s %s %j is 401, not 400", async (method, path, body) => {
    const r = await fetch(g.url + path, { method, body: JSON.stringify(body) });
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toBe("Bearer");
  });

  test("unknown fields are ignored", async () => {
    const r = await fetch(g.url + "/admin/keys", { method: "POST", headers: { Authorization: `Bearer ${TEST_ADMIN_KEY}` }, body: JSON.stringify({ key: "sk-extra", colour: "blue" }) });
    expect(r.status).toBe(200);
  });
});
