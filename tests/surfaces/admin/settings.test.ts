import { describe, expect, test } from "bun:test";
import { adminApp, call } from "../../helpers/admin";

describe("GET/PUT /admin/settings (D11.3, D2.11)", () => {
  test("GET shows effective values, computed limits, dev capture and host-sync flags", async () => {
    const t = await adminApp({ accounts: [{ email: "a@x.com", password: "p" }], release: { feed_url: "https://h/x", feed_token: "feed-secret-xyz" } });
    const r = await call(t, "GET", "/admin/settings");
    expect(r.status).toBe(200);
    expect(r.body.runtime).toMatchObject({ account_max_inflight: 2, global_max_inflight: 2, computed: { global_max_inflight: true, account_max_queue: true } });
    expect(r.body.release).toEqual({ feed_url: "https://h/x", has_feed_token: true });
    expect(r.body.dev_capture).toEqual({ enabled: true, limit: 20, max_body_bytes: 5 * 1024 * 1024 });
    expect(r.body).toMatchObject({ success: true, env_backed: true, needs_host_sync: true, config_writable: false });
    expect(r.text).not.toContain("feed-secret-xyz");
  });

  test("PUT is a partial deep update: other fields of a section stay, and the pool sees new limits at once", async () => {
    const t = await adminApp({ accounts: [{ email: "a@x.com", password: "p" }], runtime: { token_refresh_interval_hours: 12 } });
    const r = await call(t, "PUT", "/admin/settings", { runtime: { account_max_inflight: 5 }, compat: { strip_reference_markers: false }, auto_delete: { mode: "all" } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, config_writable: false, env_backed: true });
    expect(r.body.settings.runtime).toMatchObject({ account_max_inflight: 5, token_refresh_interval_hours: 12, global_max_inflight: 5 });
    expect(r.body.settings.compat).toEqual({ wide_input_strict_output: true, strip_reference_markers: false });
    expect(t.built.ctx.pool.status().max_inflight_per_account).toBe(5);
  });

  test("null returns a computed limit to its computed value", async () => {
    const t = await adminApp({ accounts: [{ email: "a@x.com", password: "p" }], runtime: { global_max_inflight: 50 } });
    const r = await call(t, "PUT", "/admin/settings", { runtime: { global_max_inflight: null } });
    expect(r.body.settings.runtime.global_max_inflight).toBe(2);
    expect(r.body.settings.runtime.computed.global_max_inflight).toBe(true);
  });

  test("out-of-range values are 400 {detail} and nothing is applied", async () => {
    const t = await adminApp();
    const cases = [
      { admin: { jwt_expire_hours: 0 } },
      { runtime: { account_max_inflight: 257 } },
      { runtime: { account_max_inflight: 4, global_max_inflight: 3 } },
      { responses: { store_ttl_seconds: 10 } },
      { embeddings: { provider: "magic" } },
      { auto_delete: { mode: "some" } },
      { current_input_file: { min_chars: -1 } },
      { release: { feed_url: "ftp://x" } },
      { model_aliases: { a: "gpt-4" } },
      { runtime: "fast" },
    ];
    for (const body of cases) {
      const r = await call(t, "PUT", "/admin/settings", { compat: { strip_reference_markers: false }, ...body });
      expect(r.status).toBe(400);
      expect(typeof r.body.detail).toBe("string");
    }
    expect(t.built.ctx.config.get().compat).toBeUndefined();
  });

  test("non-writable fields are ignored: the password hash cannot be set through settings", async () => {
    const t = await adminApp();
    const r = await call(t, "PUT", "/admin/settings", { admin: { password_hash: "sha256:00", jwt_expire_hours: 48 } });
    expect(r.status).toBe(200);
    expect(t.built.ctx.config.get().admin).toEqual({ jwt_expire_hours: 48 });
  });

  test("release feed token is writable but only reported as has_feed_token", async () => {
    const t = await adminApp();
    const r = await call(t, "PUT", "/admin/settings", { release: { feed_url: "https://code.example/repos/o/r/events", feed_token: "tok-feed-777" } });
    expect(r.status).toBe(200);
    expect(r.body.settings.release).toEqual({ feed_url: "https://code.example/repos/o/r/events", has_feed_token: true });
    expect(r.text).not.toContain("tok-feed-777");
  });
});
