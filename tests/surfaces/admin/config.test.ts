import { describe, expect, test } from "bun:test";
import { adminApp, call } from "../../helpers/admin";

describe("GET/POST /admin/config (D11.2)", () => {
  test("the read result is masked and lists keys, records, accounts and aliases", async () => {
    const t = await adminApp({ api_keys: [{ key: "k1", name: "one" }], accounts: [{ email: "a@x.com", password: "pw-AAAA-1234" }] });
    const r = await call(t, "GET", "/admin/config");
    expect(r.status).toBe(200);
    expect(r.body.keys).toEqual(["k1"]);
    expect(r.body.api_keys).toEqual([{ key: "k1", name: "one", remark: "" }]);
    expect(r.body.accounts[0]).toMatchObject({ identifier: "a@x.com", has_password: true, has_token: false });
    expect(r.body).toMatchObject({ env_backed: true, env_source_present: false, env_writeback_enabled: false, config_path: t.built.ctx.config.path });
    expect(r.text).not.toContain("pw-AAAA-1234");
  });

  test("a present list replaces, an absent one stays, and accounts sent without secrets keep them", async () => {
    const t = await adminApp({ keys: ["k1"], accounts: [{ email: "a@x.com", password: "pw-keep-me", token: "tok-keep-me-0000" }], model_aliases: { foo: "core-v4-pro" } });
    const r = await call(t, "POST", "/admin/config", { accounts: [{ email: "A@x.com", name: "renamed" }, { mobile: "13800138000", password: "pw2" }] });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, total_keys: 1, total_accounts: 2, config_writable: false });
    const c = t.built.ctx.config.get();
    expect(c.keys).toEqual(["k1"]);
    expect(c.model_aliases).toEqual({ foo: "core-v4-pro" });
    expect(c.accounts![0]).toMatchObject({ email: "A@x.com", name: "renamed", password: "pw-keep-me", token: "tok-keep-me-0000" });
    expect(c.accounts![1]!.mobile).toBe("+8613800138000");
  });

  test("api_keys win over keys; keys only add what the records lack", async () => {
    const t = await adminApp({ keys: ["old"] });
    const r = await call(t, "POST", "/admin/config", { api_keys: [{ key: "a", name: "A" }], keys: ["a", "b"] });
    expect(r.status).toBe(200);
    expect(r.body.total_keys).toBe(2);
    expect(t.built.ctx.config.get().api_keys).toEqual([
      { key: "a", name: "A", remark: "" },
      { key: "b", name: "", remark: "" },
    ]);
    expect(t.built.ctx.config.get().keys).toEqual(["a", "b"]);
  });

  test("an invalid update is 400 {detail} and changes nothing", async () => {
    const t = await adminApp({ keys: ["k1"] });
    for (const body of [{ model_aliases: { x: "not-native" } }, { accounts: [{ email: "a@x.com" }] }, { keys: ["has space"] }, { accounts: "no" }]) {
      const r = await call(t, "POST", "/admin/config", body);
      expect(r.status).toBe(400);
      expect(typeof r.body.detail).toBe("string");
    }
    expect(t.built.ctx.config.get().keys).toEqual(["k1"]);
  });

  test("an account bound to an unknown proxy is 404", async () => {
    const t = await adminApp();
    const r = await call(t, "POST", "/admin/config", { accounts: [{ email: "a@x.com", password: "p", proxy_id: "nope" }] });
    expect(r.status).toBe(404);
  });
});

describe("export (D2.9)", () => {
  test("both export endpoints return the full config with secrets and Cache-Control: no-store", async () => {
    const cfg = { keys: ["k1"], accounts: [{ email: "a@x.com", password: "pw-export", token: "tok-export-123456" }] };
    const t = await adminApp(cfg);
    const a = await call(t, "GET", "/admin/config/export");
    expect(a.status).toBe(200);
    expect(a.headers.get("cache-control")).toBe("no-store");
    expect(a.body.success).toBe(true);
    expect(a.body.config.accounts[0].password).toBe("pw-export");
    expect(JSON.parse(a.body.json)).toEqual(a.body.config);
    expect(Buffer.from(a.body.base64, "base64").toString()).toBe(a.body.json);
    const b = await call(t, "GET", "/admin/export");
    expect(b.headers.get("cache-control")).toBe("no-store");
    expect(Object.keys(b.body).sort()).toEqual(["base64", "json", "success"]);
    expect(b.body.json).toBe(a.body.json);
  });
});

describe("POST /admin/config/import (D2.10)", () => {
  test("merge adds and updates by identity, overwrites non-empty section fields, leaves compat alone", async () => {
    const t = await adminApp({
      api_keys: [{ key: "k1", name: "one" }],
      accounts: [{ email: "a@x.com", password: "old" }],
      runtime: { account_max_inflight: 3 },
      compat: { strip_reference_markers: true },
    });
    const r = await call(t, "POST", "/admin/config/import", {
      api_keys: [{ key: "k1", name: "renamed" }, { key: "k2" }],
      accounts: [{ email: "a@x.com", password: "new", token: "tok-imported-0001" }, { email: "b@x.com", password: "pb" }],
      proxies: [{ type: "http", host: "p.example", port: 8080 }],
      runtime: { account_max_inflight: 4, queue_wait_seconds: null },
      compat: { strip_reference_markers: false },
      model_aliases: { foo: "core-v4-pro" },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, mode: "merge", imported_keys: 2, imported_accounts: 2, imported_proxies: 1, config_writable: false });
    const c = t.built.ctx.config.get();
    expect(c.api_keys).toEqual([
      { key: "k1", name: "renamed", remark: "" },
      { key: "k2", name: "", remark: "" },
    ]);
    expect(c.accounts![0]).toMatchObject({ password: "new", token: "tok-imported-0001" });
    expect(c.runtime).toEqual({ account_max_inflight: 4 });
    expect(c.compat).toEqual({ strip_reference_markers: true });
    expect(c.proxies![0]!.id).toMatch(/^proxy_[0-9a-f]{12}$/);
    expect(c.model_aliases).toEqual({ foo: "core-v4-pro" });
  });

  test("replace (wrapper mode) swaps the whole config but keeps the host-sync stamp; ?mode= wins over the body", async () => {
    const t = await adminApp({ keys: ["k1"], _host_sync_hash: "abc", _host_sync_time: 123 });
    const r = await call(t, "POST", "/admin/config/import", { mode: "replace", config: { keys: ["z"], compat: { strip_reference_markers: false } } });
    expect(r.status).toBe(200);
    expect(r.body.mode).toBe("replace");
    const c = t.built.ctx.config.get();
    expect(c.keys).toEqual(["z"]);
    expect(c._host_sync_hash).toBe("abc");
    expect(c._host_sync_time).toBe(123);
    const m = await call(t, "POST", "/admin/config/import?mode=merge", { mode: "replace", config: { keys: ["y"] } });
    expect(m.body.mode).toBe("merge");
    expect(t.built.ctx.config.get().keys).toEqual(["z", "y"]);
  });

  test("replace with the keys in one form only keeps every key it lists, as a start with that config would (issue 30)", async () => {
    for (const config of [{ keys: ["k1", "k2", "k3"] }, { api_keys: [{ key: "k1" }, { key: "k2" }, { key: "k3" }] }, { keys: ["k1"], api_keys: [{ key: "k2" }, { key: "k3" }] }]) {
      const t = await adminApp({ keys: ["k1", "k2"], api_keys: [{ key: "k1", name: "" }, { key: "k2", name: "" }] });
      expect((await call(t, "POST", "/admin/config/import?mode=replace", config)).status).toBe(200);
      expect(t.built.ctx.config.managedKeys().sort()).toEqual(["k1", "k2", "k3"]);
    }
  });

  test("an import that would be invalid is 400 and nothing changes; a bad mode is 400", async () => {
    const t = await adminApp({ keys: ["k1"] });
    const r = await call(t, "POST", "/admin/config/import", { runtime: { account_max_inflight: 9999 }, keys: ["k2"] });
    expect(r.status).toBe(400);
    expect(r.body.detail).toContain("runtime.account_max_inflight");
    expect(t.built.ctx.config.get().keys).toEqual(["k1"]);
    expect((await call(t, "POST", "/admin/config/import?mode=wipe", {})).status).toBe(400);
  });

  test("export then replace-import is lossless", async () => {
    const cfg = { api_keys: [{ key: "k1", name: "n", remark: "r" }], keys: ["k1"], accounts: [{ email: "a@x.com", password: "p", token: "tok-roundtrip-01" }], custom_field: { x: 1 } };
    const t = await adminApp(cfg as any);
    const exp = (await call(t, "GET", "/admin/config/export")).body.config;
    const t2 = await adminApp();
    expect((await call(t2, "POST", "/admin/config/import?mode=replace", exp)).status).toBe(200);
    expect(t2.built.ctx.config.get()).toEqual(exp);
  });
});
