import { describe, expect, test } from "bun:test";
import { adminApp, call } from "../../helpers/admin";

const many = (n: number) => Array.from({ length: n }, (_, i) => ({ email: `user${i}@x.com`, password: `pw-${i}`, name: i % 2 ? "odd" : "even" }));

describe("GET /admin/accounts (D11.5)", () => {
  test("pages in config order with run-time fields", async () => {
    const t = await adminApp({ accounts: many(25) });
    const r = await call(t, "GET", "/admin/accounts?page=3&page_size=10");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ total: 25, page: 3, page_size: 10, total_pages: 3 });
    expect(r.body.items.map((i: any) => i.identifier)).toEqual(["user20@x.com", "user21@x.com", "user22@x.com", "user23@x.com", "user24@x.com"]);
    expect(r.body.items[0]).toEqual({
      identifier: "user20@x.com",
      email: "user20@x.com",
      mobile: "",
      name: "even",
      remark: "",
      has_password: true,
      has_token: false,
      token_preview: "",
      proxy_id: "",
      test_status: "untested",
      tested_at: null,
      test_message: "",
      in_flight: 0,
      cooldown_until: null,
      health_state: "healthy",
      health_class: null,
    });
  });

  test("q filters case-insensitively on identifier, email, mobile, name and remark", async () => {
    const t = await adminApp({ accounts: [...many(4), { mobile: "138-0013-8000", password: "p", remark: "VIP" }] });
    expect((await call(t, "GET", "/admin/accounts?q=ODD")).body.total).toBe(2);
    expect((await call(t, "GET", "/admin/accounts?q=user3")).body.items[0].identifier).toBe("user3@x.com");
    expect((await call(t, "GET", "/admin/accounts?q=8613800")).body.total).toBe(1);
    expect((await call(t, "GET", "/admin/accounts?q=vip")).body.total).toBe(1);
  });

  test("in_flight, cooldown and test status come from the pool and the manager", async () => {
    const t = await adminApp({ accounts: many(1) });
    const lease = await t.built.ctx.pool.acquire();
    t.built.ctx.pool.setCooldown("user0@x.com", 60_000);
    t.built.ctx.accounts.mark("user0@x.com", "ok", "fine");
    const item = (await call(t, "GET", "/admin/accounts")).body.items[0];
    expect(item.in_flight).toBe(1);
    expect(Date.parse(item.cooldown_until)).toBeGreaterThan(Date.now());
    expect(item).toMatchObject({ test_status: "ok", test_message: "fine" });
    lease.release();
  });

  test("page and page_size bounds are 400", async () => {
    const t = await adminApp();
    for (const q of ["page=0", "page_size=0", "page_size=5001", "page=x"]) expect((await call(t, "GET", `/admin/accounts?${q}`)).status).toBe(400);
    expect((await call(t, "GET", "/admin/accounts?page_size=5000")).status).toBe(200);
  });
});

describe("account mutations (D8.1, D11.5)", () => {
  test("POST normalises the identifier, appends, and rejects duplicates with 409", async () => {
    const t = await adminApp();
    const a = await call(t, "POST", "/admin/accounts", { email: " Mixed@X.com ", password: "p", name: "n" });
    expect(a.body).toMatchObject({ success: true, identifier: "mixed@x.com", total_accounts: 1, config_writable: false });
    const m = await call(t, "POST", "/admin/accounts", { mobile: "138 0013 8000", password: "p" });
    expect(m.body.identifier).toBe("+8613800138000");
    const tok = await call(t, "POST", "/admin/accounts", { token: "tok-only-abcdef123" });
    expect(tok.body.identifier).toMatch(/^token:[0-9a-f]{16}$/);
    expect((await call(t, "POST", "/admin/accounts", { email: "MIXED@x.com", password: "q" })).status).toBe(409);
    expect((await call(t, "POST", "/admin/accounts", { mobile: "13800138000", password: "q" })).status).toBe(409);
  });

  test("POST without usable credentials is 400; an unknown proxy is 404", async () => {
    const t = await adminApp();
    expect((await call(t, "POST", "/admin/accounts", { email: "a@x.com" })).status).toBe(400);
    expect((await call(t, "POST", "/admin/accounts", { password: "p" })).status).toBe(400);
    expect((await call(t, "POST", "/admin/accounts", { email: 5, password: "p" })).status).toBe(400);
    expect((await call(t, "POST", "/admin/accounts", { email: "a@x.com", password: "p", proxy_id: "nope" })).status).toBe(404);
  });

  test("PUT edits labels; a non-empty secret replaces and resets the test status, an empty one keeps", async () => {
    const t = await adminApp({ accounts: [{ email: "a@x.com", password: "old" }] });
    t.built.ctx.accounts.mark("a@x.com", "ok");
    const r = await call(t, "PUT", "/admin/accounts/A%40X.com", { name: "N", remark: "R", password: "" });
    expect(r.body).toMatchObject({ success: true, total_accounts: 1 });
    expect(t.built.ctx.config.get().accounts![0]).toMatchObject({ name: "N", remark: "R", password: "old" });
    expect(t.built.ctx.accounts.status("a@x.com").test_status).toBe("ok");
    await call(t, "PUT", "/admin/accounts/a@x.com", { password: "new" });
    expect(t.built.ctx.config.get().accounts![0]!.password).toBe("new");
    expect(t.built.ctx.accounts.status("a@x.com").test_status).toBe("untested");
    expect((await call(t, "PUT", "/admin/accounts/b@x.com", { name: "x" })).status).toBe(404);
  });

  test("pacing per account (issue 32): POST and PUT set it, PUT without it keeps it, null clears it, a bad value is 400", async () => {
    const t = await adminApp({});
    const created = await call(t, "POST", "/admin/accounts", { email: "p@x.com", password: "pw", min_interval_ms: 1500, daily_completions: 40 });
    expect(created.status).toBe(200);
    const stored = () => t.built.ctx.config.get().accounts![0]!;
    expect(stored()).toMatchObject({ min_interval_ms: 1500, daily_completions: 40 });
    await call(t, "PUT", "/admin/accounts/p@x.com", { name: "renamed" });
    expect(stored()).toMatchObject({ name: "renamed", min_interval_ms: 1500, daily_completions: 40 });
    await call(t, "PUT", "/admin/accounts/p@x.com", { min_interval_ms: 250, daily_completions: null });
    expect(stored().min_interval_ms).toBe(250);
    expect("daily_completions" in stored()).toBe(false);
    expect((await call(t, "PUT", "/admin/accounts/p@x.com", { min_interval_ms: -1 })).status).toBe(400);
    expect((await call(t, "POST", "/admin/accounts", { email: "q@x.com", password: "pw", daily_completions: 1.5 })).status).toBe(400);
    expect(stored().min_interval_ms).toBe(250);
  });

  test("DELETE by email, mobile or token id; unknown is 404", async () => {
    const t = await adminApp({ accounts: [{ email: "a@x.com", password: "p" }, { mobile: "+8613800138000", password: "p" }, { token: "tok-only-abcdef123" }] });
    const tokenId = (await call(t, "GET", "/admin/accounts")).body.items[2].identifier;
    expect((await call(t, "DELETE", "/admin/accounts/13800138000")).body.total_accounts).toBe(2);
    expect((await call(t, "DELETE", `/admin/accounts/${tokenId}`)).body.total_accounts).toBe(1);
    expect((await call(t, "DELETE", "/admin/accounts/a@x.com")).body.total_accounts).toBe(0);
    expect((await call(t, "DELETE", "/admin/accounts/a@x.com")).status).toBe(404);
  });

  test("PUT /proxy binds, unbinds with an empty string, and rejects unknown proxies or accounts with 404", async () => {
    const t = await adminApp({ accounts: [{ email: "a@x.com", password: "p" }], proxies: [{ id: "px", type: "http", host: "h", port: 1 }] });
    const r = await call(t, "PUT", "/admin/accounts/a@x.com/proxy", { proxy_id: "px" });
    expect(r.body).toMatchObject({ success: true, identifier: "a@x.com", proxy_id: "px" });
    expect(t.built.ctx.config.get().accounts![0]!.proxy_id).toBe("px");
    expect((await call(t, "PUT", "/admin/accounts/a@x.com/proxy", { proxy_id: "" })).body.proxy_id).toBe("");
    expect((await call(t, "PUT", "/admin/accounts/a@x.com/proxy", { proxy_id: "nope" })).status).toBe(404);
    expect((await call(t, "PUT", "/admin/accounts/z@x.com/proxy", { proxy_id: "px" })).status).toBe(404);
  });
});

describe("queue status and bulk import", () => {
  test("GET /admin/queue/status reports the pool (D8.15)", async () => {
    const t = await adminApp({ accounts: many(3) });
    const lease = await t.built.ctx.pool.acquire();
    const r = await call(t, "GET", "/admin/queue/status");
    expect(r.body).toMatchObject({ total: 3, in_use: 1, available: 3, max_inflight_per_account: 2, recommended_concurrency: 6, waiting: 0, queue_wait_seconds: 60, cooldown_accounts: [] });
    expect(r.body.in_use_accounts).toEqual(["user0@x.com"]);
    lease.release();
  });

  test("POST /admin/import adds new keys and accounts and counts what it skipped (D11.1)", async () => {
    const t = await adminApp({ keys: ["k1"], accounts: [{ email: "a@x.com", password: "p" }] });
    const r = await call(t, "POST", "/admin/import", {
      keys: ["k1", "k2", "bad key", 7],
      accounts: [{ email: "A@x.com", password: "p" }, { email: "b@x.com", password: "p" }, { token: "tok-import-123456" }, { email: "c@x.com" }, "junk"],
    });
    expect(r.body).toMatchObject({ success: true, imported_keys: 1, imported_accounts: 2, skipped_keys: 3, skipped_accounts: 3, config_writable: false });
    expect(t.built.ctx.config.get().keys).toEqual(["k1", "k2"]);
    expect((await call(t, "POST", "/admin/import", { keys: "k" })).status).toBe(400);
  });
});
