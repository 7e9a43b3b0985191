// The admin part of the app (src/app.ts) is built on the first request to a path starting with /admin (issue 35):
// before it, no admin route is registered; every /admin path, unknown ones included, is answered by it with the
// admin shapes; business paths never build it; concurrent first requests share one build.
import { afterEach, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app";

const ADMIN = { Authorization: "Bearer test-admin-key" };
let t: TestApp | undefined;
afterEach(async () => {
  await t?.built.close();
  t = undefined;
});

const adminRoutes = (app: TestApp["app"]) => app.routes.filter((r) => r.path === "/admin" || r.path.startsWith("/admin/")).length;

describe("the admin part, built on the first /admin request", () => {
  test("business requests do not build it; the first /admin request does, once, for concurrent callers", async () => {
    t = await makeTestApp({ config: { keys: ["sk-a"] } as never });
    expect(adminRoutes(t.app)).toBe(0);
    expect((await t.req("/readyz")).status).toBe(200);
    expect((await t.req("/v1/models", { headers: { Authorization: "Bearer sk-a" } })).status).toBe(200);
    expect((await t.req("/openapi.json")).status).toBe(200);
    expect(adminRoutes(t.app)).toBe(0);
    const answers = await Promise.all([t.req("/admin/keys", { headers: ADMIN }), t.req("/admin/version", { headers: ADMIN }), t.req("/admin/keys")]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 401]);
    expect((await answers[0]!.json()).keys.map((k: { key: string }) => k.key)).toEqual(["sk-a"]);
    const count = adminRoutes(t.app);
    expect(count).toBeGreaterThan(60);
    // Routes are registered once: later requests reuse the part.
    expect((await t.req("/admin/keys", { headers: ADMIN })).status).toBe(200);
    expect(adminRoutes(t.app)).toBe(count);
  });

  test("unknown /admin paths, and paths that only start with /admin, answer in the admin shape from the admin part", async () => {
    t = await makeTestApp();
    const unknown = await t.req("/admin/no-such-route", { headers: ADMIN });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ detail: "No route for GET /admin/no-such-route." });
    expect(unknown.headers.get("x-request-id")).toBeTruthy();
    // Without a credential the caller learns nothing about which admin routes exist (adminDenial).
    expect((await t.req("/admin/no-such-route")).status).toBe(401);
    const prefixed = await t.req("/adminx", { headers: ADMIN });
    expect(prefixed.status).toBe(404);
    expect(await prefixed.json()).toEqual({ detail: "No route for GET /adminx." });
    // A business path still answers in its own shape.
    const business = await t.req("/v1/no-such-route");
    expect(business.status).toBe(404);
    expect((await business.json()).error).toBeDefined();
  });

  test("a CORS preflight on an admin path is answered like one on any path", async () => {
    t = await makeTestApp();
    const init = { method: "OPTIONS", headers: { Origin: "http://example.test", "Access-Control-Request-Method": "POST" } };
    const admin = await t.req("/admin/keys", init);
    const business = await t.req("/v1/chat/completions", init);
    expect(admin.status).toBe(204);
    expect(business.status).toBe(204);
    const corsOf = (r: Response) => [...r.headers].filter(([k]) => k.startsWith("access-control-")).sort();
    expect(corsOf(admin)).toEqual(corsOf(business));
  });

  test("the in-process self call reaches admin routes too", async () => {
    t = await makeTestApp();
    const r = await t.built.ctx.selfHandle!(new Request("http://localhost/admin/version", { headers: ADMIN }));
    expect(r.status).toBe(200);
  });
});
