import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { adminApp, call } from "../../helpers/admin";
import { startFakeHost } from "../../helpers/fake-host";
import { canonicalJson } from "../../../src/config/canonical-json";
import { configHash } from "../../../src/config/hash";

const host = startFakeHost();
afterAll(() => host.stop());
beforeEach(() => {
  host.calls.length = 0;
  host.env.clear();
  Object.assign(host.script, { project: 200, upsert: 200, redeploy: 201, deployUrl: "my-app-abc.host.example" });
});

const seeded = { keys: ["k1"], accounts: [{ email: "a@x.com", password: "pw-host", token: "tok-not-synced-0001" }] };

describe("POST /admin/host/sync (D14.2, D14.3)", () => {
  test("pushes the canonical config without tokens, saves body credentials, redeploys and stores the stamp", async () => {
    const t = await adminApp(seeded, { HOST_API_BASE: host.base });
    const r = await call(t, "POST", "/admin/host/sync", { host_token: "host-tok-body", project_id: "prj_1", team_id: "team_9" });
    expect(r.status).toBe(200);
    const hash = configHash(t.built.ctx.config.get());
    expect(r.body).toMatchObject({ success: true, validated_accounts: 0, failed_accounts: [], config_hash: hash, deployment_url: "https://my-app-abc.host.example" });
    expect(r.body.saved_credentials.sort()).toEqual(["HOST_PROJECT_ID", "HOST_TEAM_ID", "HOST_TOKEN"]);
    expect(host.calls.every((c) => c.auth === "Bearer host-tok-body" && c.query.teamId === "team_9")).toBe(true);
    const put = host.calls.find((c) => c.path.endsWith("/env/SVC_CONFIG_JSON"))!;
    expect(put.body.sensitive).toBe(true);
    expect(put.body.targets).toEqual(["production", "preview"]);
    const pushed = Buffer.from(host.env.get("SVC_CONFIG_JSON")!, "base64").toString();
    const parsed = JSON.parse(pushed);
    expect(pushed).toBe(canonicalJson(parsed));
    expect(parsed.accounts[0].token).toBeUndefined();
    expect(parsed.accounts[0].password).toBe("pw-host");
    expect(parsed._host_sync_hash).toBe(hash);
    expect(t.built.ctx.config.get()._host_sync_hash).toBe(hash);
    expect(typeof t.built.ctx.config.get()._host_sync_time).toBe("number");
    expect(r.text).not.toContain("host-tok-body");
  });

  test("env pre-configuration is used for empty fields and __USE_PRECONFIG__; nothing from env is re-saved", async () => {
    const t = await adminApp({}, { HOST_API_BASE: host.base, HOST_TOKEN: "env-tok", HOST_PROJECT_ID: "prj_env" });
    const r = await call(t, "POST", "/admin/host/sync", { host_token: "__USE_PRECONFIG__", project_id: "" });
    expect(r.status).toBe(200);
    expect(r.body.saved_credentials).toEqual([]);
    expect(host.calls[0]).toMatchObject({ path: "/v1/projects/prj_env", auth: "Bearer env-tok" });
    expect(host.calls[0]!.query.teamId).toBeUndefined();
  });

  test("a refused redeploy asks for a manual deploy", async () => {
    const t = await adminApp({}, { HOST_API_BASE: host.base, HOST_TOKEN: "x", HOST_PROJECT_ID: "p" });
    host.script.redeploy = 403;
    const r = await call(t, "POST", "/admin/host/sync", {});
    expect(r.body).toMatchObject({ success: true, manual_deploy_required: true });
    expect(r.body.deployment_url).toBeUndefined();
    expect(r.body.message).toContain("403");
  });

  test("failure paths: no base 400, no token 400, rejected token 400, unknown project 400, host 5xx 502, env upsert failure stores nothing", async () => {
    const none = await adminApp();
    expect((await call(none, "POST", "/admin/host/sync", { host_token: "x", project_id: "p" })).status).toBe(400);
    const t = await adminApp({}, { HOST_API_BASE: host.base });
    expect((await call(t, "POST", "/admin/host/sync", { project_id: "p" })).status).toBe(400);
    expect((await call(t, "POST", "/admin/host/sync", { host_token: "x" })).status).toBe(400);
    host.script.project = 401;
    expect((await call(t, "POST", "/admin/host/sync", { host_token: "x", project_id: "p" })).body.detail).toBe("host rejected the token");
    host.script.project = 404;
    expect((await call(t, "POST", "/admin/host/sync", { host_token: "x", project_id: "p" })).body.detail).toBe("project not found");
    host.script.project = 500;
    expect((await call(t, "POST", "/admin/host/sync", { host_token: "x", project_id: "p" })).status).toBe(502);
    host.script.project = 200;
    host.script.upsert = 400;
    expect((await call(t, "POST", "/admin/host/sync", { host_token: "x", project_id: "p" })).status).toBe(400);
    expect(t.built.ctx.config.get()._host_sync_hash).toBeUndefined();
    const down = await adminApp({}, { HOST_API_BASE: "http://127.0.0.1:1" });
    expect((await call(down, "POST", "/admin/host/sync", { host_token: "x", project_id: "p" })).status).toBe(502);
  });

  test("auto_validate logs in accounts with a password and no token; failures are listed and do not stop the sync", async () => {
    const t = await adminApp({ accounts: [{ email: "needs-login@x.com", password: "p" }, { email: "has-token@x.com", password: "p", token: "tok-cached-000001" }] }, { HOST_API_BASE: host.base });
    const r = await call(t, "POST", "/admin/host/sync", { host_token: "x", project_id: "p" });
    expect(r.status).toBe(200);
    expect(r.body.validated_accounts).toBe(0);
    expect(r.body.failed_accounts).toEqual([{ identifier: "needs-login@x.com", message: expect.any(String) }]);
    const skip = await call(t, "POST", "/admin/host/sync", { host_token: "x", project_id: "p", auto_validate: false });
    expect(skip.body.failed_accounts).toEqual([]);
  });
});

describe("host status and pre-configuration (D14.4, D14.5)", () => {
  test("drift: unsynced, then synced, then a change (but not a token) makes it differ; drafts compare against the synced hash", async () => {
    const t = await adminApp(seeded, { HOST_API_BASE: host.base, HOST_TOKEN: "x", HOST_PROJECT_ID: "p" });
    const before = await call(t, "GET", "/admin/host/status");
    expect(before.body).toMatchObject({ synced: false, has_synced_before: false, last_synced_hash: null, last_sync_time: null, env_backed: true, draft_differs: true });
    expect((await call(t, "GET", "/admin/settings")).body.needs_host_sync).toBe(true);
    await call(t, "POST", "/admin/host/sync", {});
    const after = await call(t, "GET", "/admin/host/status");
    expect(after.body).toMatchObject({ synced: true, has_synced_before: true, draft_differs: false });
    expect(after.body.config_hash).toBe(after.body.last_synced_hash);
    expect((await call(t, "GET", "/admin/settings")).body.needs_host_sync).toBe(false);
    // A login token changes nothing (D14.6).
    await t.built.ctx.config.update((c) => {
      c.accounts![0]!.token = "tok-new-login-0002";
    });
    expect((await call(t, "GET", "/admin/host/status")).body.synced).toBe(true);
    const draft = await call(t, "POST", "/admin/host/status", { config_override: { keys: ["k1", "k2"] } });
    expect(draft.body).toMatchObject({ synced: true, draft_differs: true });
    expect(draft.body.draft_hash).not.toBe(draft.body.config_hash);
    await call(t, "POST", "/admin/keys", { key: "k3" });
    const drift = await call(t, "GET", "/admin/host/status");
    expect(drift.body.synced).toBe(false);
    expect(drift.body.config_hash).not.toBe(drift.body.last_synced_hash);
    expect((await call(t, "POST", "/admin/host/status", { config_override: { keys: "x" } })).status).toBe(400);
  });

  test("GET /admin/host/config reports the environment without the token", async () => {
    const t = await adminApp({}, { HOST_TOKEN: "env-secret-token", HOST_PROJECT_ID: "prj", HOST_API_BASE: host.base });
    const r = await call(t, "GET", "/admin/host/config");
    expect(r.body).toEqual({ has_token: true, project_id: "prj", team_id: null, api_base_configured: true });
    expect(r.text).not.toContain("env-secret-token");
  });
});
