import { describe, expect, test } from "bun:test";
import { adminApp, call } from "../../helpers/admin";

describe("/admin/keys (D11.4, D2.7)", () => {
  test("create, rename and delete keep keys and api_keys equal", async () => {
    const t = await adminApp({ keys: ["legacy"] });
    const add = await call(t, "POST", "/admin/keys", { key: "sk-new", name: "New", remark: "r" });
    expect(add.status).toBe(200);
    expect(add.body).toMatchObject({ success: true, total_keys: 2, config_writable: false });
    const put = await call(t, "PUT", "/admin/keys/sk-new", { name: "Renamed" });
    expect(put.body).toMatchObject({ success: true, total_keys: 2 });
    const c = t.built.ctx.config.get();
    expect(c.api_keys!.find((r) => r.key === "sk-new")).toEqual({ key: "sk-new", name: "Renamed", remark: "r" });
    expect(c.keys).toEqual(["legacy", "sk-new"]);
    const del = await call(t, "DELETE", "/admin/keys/legacy");
    expect(del.body).toMatchObject({ success: true, total_keys: 1 });
    expect(t.built.ctx.config.get().keys).toEqual(["sk-new"]);
    expect(t.built.ctx.config.isManagedKey("legacy")).toBe(false);
  });

  test("keys with URL-special characters work in the path", async () => {
    const t = await adminApp({ keys: ["a/b?c#d%e"] });
    const r = await call(t, "PUT", `/admin/keys/${encodeURIComponent("a/b?c#d%e")}`, { remark: "odd" });
    expect(r.status).toBe(200);
    expect(t.built.ctx.config.get().api_keys![0]!.remark).toBe("odd");
  });

  test("duplicate is 409, unknown is 404, invalid is 400", async () => {
    const t = await adminApp({ keys: ["k1"] });
    expect((await call(t, "POST", "/admin/keys", { key: "k1" })).status).toBe(409);
    expect((await call(t, "PUT", "/admin/keys/nope", { name: "x" })).status).toBe(404);
    expect((await call(t, "DELETE", "/admin/keys/nope")).status).toBe(404);
    for (const key of ["", "with space", "x".repeat(257), 42, undefined]) {
      const r = await call(t, "POST", "/admin/keys", { key });
      expect(r.status).toBe(400);
      expect(r.body.detail).toBeString();
    }
  });

  test("100 concurrent creations all survive (serialised read-modify-write)", async () => {
    const t = await adminApp({ keys: ["seed"] });
    const keys = Array.from({ length: 100 }, (_, i) => `sk-concurrent-${i}`);
    const results = await Promise.all(keys.map((key) => call(t, "POST", "/admin/keys", { key, name: key })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const c = t.built.ctx.config.get();
    expect(new Set(c.keys)).toEqual(new Set(["seed", ...keys]));
    expect(c.api_keys!.length).toBe(101);
    // Mixed concurrent edits of different kinds do not lose each other either.
    await Promise.all([
      ...keys.slice(0, 50).map((k) => call(t, "DELETE", `/admin/keys/${k}`)),
      ...keys.slice(50).map((k) => call(t, "PUT", `/admin/keys/${k}`, { remark: "kept" })),
      call(t, "POST", "/admin/accounts", { email: "c@x.com", password: "p" }),
    ]);
    const after = t.built.ctx.config.get();
    expect(after.keys!.length).toBe(51);
    expect(after.api_keys!.filter((r) => r.remark === "kept").length).toBe(50);
    expect(after.accounts!.length).toBe(1);
  });
});
