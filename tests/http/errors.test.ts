import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../helpers/app";
import { ADMIN_401_HINT } from "../../src/http/admin-auth";

describe("error shapes per surface (D4.1, D4.4)", async () => {
  const t = await makeTestApp();

  test("an unknown chat-surface route is 404 in the compatibility shape", async () => {
    const r = await t.req("/v1/nothing-here");
    expect(r.status).toBe(404);
    expect(await r.json()).toEqual({ error: { message: expect.any(String), type: "invalid_request_error", code: "not_found", param: null } });
  });

  test("a messages-surface error has the top-level type", async () => {
    const r = await t.req("/msgapi/v1/models/not-a-model");
    expect(r.status).toBe(404);
    const body = await r.json();
    expect(body.type).toBe("error");
    expect(body.error).toMatchObject({ type: "not_found_error", code: "model_not_found" });
    expect(r.headers.get("request-id")).toBe(r.headers.get("x-request-id"));
  });

  test("a generate-content error carries the HTTP status as code and a status string", async () => {
    const r = await t.req("/v1beta/models/not-a-model");
    expect(r.status).toBe(404);
    expect(await r.json()).toEqual({ error: { code: 404, message: expect.any(String), status: "NOT_FOUND", details: [{ reason: "model_not_found" }] } });
  });

  test("admin errors are {detail} and unauthenticated unknown admin routes say 401, not 404", async () => {
    const r = await t.req("/admin/does-not-exist");
    expect(r.status).toBe(401);
    expect(await r.json()).toEqual({ detail: ADMIN_401_HINT });
    expect(r.headers.get("www-authenticate")).toBe("Bearer");
    const r2 = await t.req("/admin/does-not-exist", { headers: { Authorization: "Bearer test-admin-key" } });
    expect(r2.status).toBe(404);
    expect((await r2.json()).detail).toContain("No route");
  });

  test("a wrong method is 404 not_found", async () => {
    const r = await t.req("/v1/models", { method: "DELETE" });
    expect(r.status).toBe(404);
  });

  test("invalid JSON to an admin route is 400 {detail}", async () => {
    const r = await t.req("/admin/login", { method: "POST", body: "{nope", headers: { "content-type": "text/plain" } });
    expect(r.status).toBe(400);
    expect((await r.json()).detail).toContain("not valid JSON");
  });

  test("every response carries a request id; a well-formed client id is reused", async () => {
    const r = await t.req("/healthz", { headers: { "X-Request-Id": "client.id-42" } });
    expect(r.headers.get("x-request-id")).toBe("client.id-42");
    const r2 = await t.req("/healthz", { headers: { "X-Request-Id": "bad id with spaces" } });
    expect(r2.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{24}$/);
  });
});

describe("probes (D1.5)", async () => {
  const t = await makeTestApp();
  test("healthz and readyz answer GET and HEAD", async () => {
    expect(await (await t.req("/healthz")).json()).toEqual({ status: "ok" });
    expect(await (await t.req("/readyz")).json()).toEqual({ status: "ready" });
    const head = await t.req("/readyz", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });
  test("while draining readyz is 503 and business routes answer shutting_down", async () => {
    const d = await makeTestApp();
    d.built.ctx.lifecycle.draining = true;
    const ready = await d.req("/readyz");
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: "draining" });
    expect((await d.req("/healthz")).status).toBe(200);
    const biz = await d.req("/v1/models");
    expect(biz.status).toBe(503);
    expect((await biz.json()).error.code).toBe("shutting_down");
    expect(biz.headers.get("retry-after")).toBe("5");
  });
});
