// Every admin route requires the admin credential (D5.6), and no admin response but the exports ever
// carries a configured secret (D2.8, D2.9).
import { describe, expect, test } from "bun:test";
import { adminApp, call } from "../../helpers/admin";
import { startFakeHost } from "../../helpers/fake-host";
import type { AccountOps } from "../../../src/accounts/operations";
import { scratchDir } from "../../helpers/scratch";
import { ADMIN_401_HINT } from "../../../src/http/admin-auth";

const ROUTES: [string, string][] = [
  ["GET", "/admin/config"], ["POST", "/admin/config"], ["GET", "/admin/settings"], ["PUT", "/admin/settings"],
  ["POST", "/admin/settings/password"], ["POST", "/admin/config/import"], ["GET", "/admin/config/export"], ["GET", "/admin/export"],
  ["GET", "/admin/host/config"], ["POST", "/admin/keys"], ["PUT", "/admin/keys/k1"], ["DELETE", "/admin/keys/k1"],
  ["GET", "/admin/proxies"], ["POST", "/admin/proxies"], ["PUT", "/admin/proxies/px"], ["DELETE", "/admin/proxies/px"], ["POST", "/admin/proxies/test"],
  ["GET", "/admin/accounts"], ["POST", "/admin/accounts"], ["PUT", "/admin/accounts/a@x.com"], ["DELETE", "/admin/accounts/a@x.com"],
  ["PUT", "/admin/accounts/a@x.com/proxy"], ["GET", "/admin/queue/status"], ["POST", "/admin/accounts/test"], ["POST", "/admin/accounts/test-all"],
  ["POST", "/admin/accounts/sessions/delete-all"], ["POST", "/admin/import"], ["POST", "/admin/test"],
  ["POST", "/admin/dev/raw-samples/capture"], ["GET", "/admin/dev/raw-samples/query"], ["POST", "/admin/dev/raw-samples/save"],
  ["GET", "/admin/dev/captures"], ["DELETE", "/admin/dev/captures"], ["POST", "/admin/host/sync"], ["GET", "/admin/host/status"],
  ["POST", "/admin/host/status"], ["GET", "/admin/chat-history"], ["DELETE", "/admin/chat-history"],
  ["GET", "/admin/chat-history/chat_000000000000000000000000"], ["DELETE", "/admin/chat-history/chat_000000000000000000000000"],
  ["PUT", "/admin/chat-history/settings"],
];

describe("admin auth on every route (D5.6)", () => {
  test.each(ROUTES)("%s %s is 401 without credentials and with a wrong one, and nothing changes", async (method, path) => {
    const t = await adminApp({ keys: ["k1"], accounts: [{ email: "a@x.com", password: "p" }], proxies: [{ id: "px", type: "http", host: "h", port: 1 }] });
    const before = JSON.stringify(t.built.ctx.config.get());
    for (const headers of [{}, { Authorization: "Bearer wrong" }, { Authorization: "Basic test-admin-key" }] as Record<string, string>[]) {
      const r = await t.req(path, { method, headers, json: method === "GET" ? undefined : { key: "k9", email: "b@x.com", password: "p" } });
      expect(r.status).toBe(401);
      expect(await r.json()).toEqual({ detail: ADMIN_401_HINT });
      expect(r.headers.get("www-authenticate")).toBe("Bearer");
    }
    expect(JSON.stringify(t.built.ctx.config.get())).toBe(before);
  });

  test("each route in the table exists: with the admin key none of them is a routing 404 or a 401", async () => {
    const t = await adminApp({ keys: ["k1"], accounts: [{ email: "a@x.com", password: "p" }], proxies: [{ id: "px", type: "http", host: "h", port: 1 }] });
    for (const [method, path] of ROUTES) {
      const r = await call(t, method, path, method === "GET" ? undefined : {});
      expect([401, 405]).not.toContain(r.status);
      if (r.status === 404) expect(r.body.detail).not.toStartWith("No route");
    }
  });
});

const SECRETS = {
  accountPassword: "SECRET-account-password-1111",
  accountToken: "SECRET-account-token-2222-abcdefgh",
  tokenOnly: "SECRET-token-only-3333-abcdefgh",
  proxyPassword: "SECRET-proxy-password-4444",
  passwordHash: "sha256:5555555555555555555555555555555555555555555555555555555555555555",
  feedToken: "SECRET-feed-token-6666",
  hostToken: "SECRET-host-token-7777",
  adminKey: "test-admin-key",
};

describe("no secret in any admin response (D2.8)", () => {
  test("every GET/POST/PUT endpoint, success and error paths, never returns a configured secret", async () => {
    const host = startFakeHost();
    try {
      const t = await adminApp(
        {
          keys: ["k1"],
          accounts: [
            { email: "a@x.com", password: SECRETS.accountPassword, token: SECRETS.accountToken, proxy_id: "px" },
            { token: SECRETS.tokenOnly },
          ],
          proxies: [{ id: "px", type: "http", host: "127.0.0.1", port: 1, username: "u", password: SECRETS.proxyPassword }],
          admin: { password_hash: SECRETS.passwordHash },
          release: { feed_url: "https://code.example/repos/o/r/events", feed_token: SECRETS.feedToken },
        },
        { HOST_API_BASE: host.base, HOST_TOKEN: SECRETS.hostToken, HOST_PROJECT_ID: "prj", SVC_CORE_BASE_URL: "http://127.0.0.1:1" },
      );
      // Core-backed routes with fakes that echo what they are given, so a leak through them would show.
      const ops: AccountOps = {
        test: async (id, o) => ({ success: false, response_time: 1, message: `failed for ${id}`, model: o.model, session_count: 0 }),
        deleteAllSessions: async (id) => ({ success: true, message: `cleared ${id}`, deleted: 0 }),
      };
      t.built.ctx.accountOps = ops;
      t.built.ctx.selfHandle = async (req) => Response.json({ echoed: await req.json() });
      t.built.ctx.captures.record({ label: "completion", chain_key: "req_x", round: 0, method: "POST", path: "/c", account_id: "a@x.com", status_code: 200, duration_ms: 1, request_body: "{}", response_body: "data: {}\n\n" });
      const id = t.built.ctx.chatHistory.start({ surface: "chat", model: "m", stream: false, caller_id: "caller:x" });
      t.built.ctx.dataDir = scratchDir("svc-secret-scan-");

      const calls: [string, string, unknown?][] = [
        ["GET", "/admin/config"], ["GET", "/admin/settings"], ["GET", "/admin/host/config"], ["GET", "/admin/proxies"],
        ["GET", "/admin/accounts"], ["GET", "/admin/accounts?q=token"], ["GET", "/admin/queue/status"], ["GET", "/admin/dev/captures"],
        ["GET", "/admin/dev/raw-samples/query"], ["GET", "/admin/host/status"], ["GET", "/admin/chat-history"], ["GET", `/admin/chat-history/${id}`],
        ["POST", "/admin/config", { accounts: [{ email: "a@x.com" }, { identifier: "x" }] }],
        ["POST", "/admin/config", { accounts: [{ email: "a@x.com", proxy_id: "px" }] }],
        ["PUT", "/admin/settings", { runtime: { account_max_inflight: 3 } }],
        ["PUT", "/admin/settings", { runtime: { account_max_inflight: "bad" } }],
        ["POST", "/admin/config/import", { accounts: [{ email: "a@x.com", password: SECRETS.accountPassword }] }],
        ["POST", "/admin/config/import", { accounts: [{ email: 5 }] }],
        ["POST", "/admin/keys", { key: "k2" }], ["PUT", "/admin/keys/k2", { name: "n" }],
        ["POST", "/admin/proxies", { type: "http", host: "h2", port: 2, password: SECRETS.proxyPassword }],
        ["PUT", "/admin/proxies/px", { name: "n", password: "" }],
        ["POST", "/admin/proxies/test", { proxy_id: "px" }],
        ["POST", "/admin/proxies/test", { type: "http", host: "127.0.0.1", port: 1, username: "u", password: SECRETS.proxyPassword }],
        ["POST", "/admin/accounts", { email: "new@x.com", password: SECRETS.accountPassword }],
        ["POST", "/admin/accounts", { email: "a@x.com", password: SECRETS.accountPassword }],
        ["PUT", "/admin/accounts/a@x.com", { name: "n", password: "" }],
        ["PUT", "/admin/accounts/a@x.com/proxy", { proxy_id: "px" }],
        ["POST", "/admin/accounts/test", { identifier: "a@x.com" }], ["POST", "/admin/accounts/test-all", {}],
        ["POST", "/admin/accounts/sessions/delete-all", { identifier: "a@x.com" }],
        ["POST", "/admin/import", { keys: ["k3"], accounts: [{ token: SECRETS.tokenOnly }] }],
        ["POST", "/admin/test", {}], ["POST", "/admin/dev/raw-samples/save", { chain_key: "req_x" }],
        ["POST", "/admin/host/sync", { auto_validate: false }], ["POST", "/admin/host/status", { config_override: { keys: ["z"] } }],
        ["PUT", "/admin/chat-history/settings", { limit: 5 }],
        ["POST", "/admin/settings/password", { new_password: "short" }],
        ["GET", "/admin/nope"],
      ];
      const statuses: number[] = [];
      for (const [method, path, body] of calls) {
        const r = await call(t, method, path, body);
        statuses.push(r.status);
        for (const [name, secret] of Object.entries(SECRETS)) {
          if (r.text.includes(secret)) throw new Error(`${method} ${path} leaked ${name}: ${r.text.slice(0, 300)}`);
        }
      }
      // The scan covered success and error answers.
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(25);
      expect(statuses.some((s) => s >= 400)).toBe(true);
      // The export is the one exception, and it really does carry the secrets.
      const exp = await call(t, "GET", "/admin/config/export");
      expect(exp.text).toContain(SECRETS.accountPassword);
    } finally {
      host.stop();
    }
  });
});
