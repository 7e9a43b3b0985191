import { describe, expect, test } from "bun:test";
import { readFile } from "node:fs/promises";
import { adminApp, call } from "../../helpers/admin";
import type { TestApp } from "../../helpers/app";
import type { AccountOps } from "../../../src/accounts/operations";
import { scratchDir } from "../../helpers/scratch";

const accounts = Array.from({ length: 7 }, (_, i) => ({ email: `u${i}@x.com`, password: `pw-${i}` }));

function fakeOps(log: string[], fail = new Set<string>()): AccountOps {
  let running = 0;
  return {
    async test(id, opts) {
      running++;
      log.push(`start ${id} running=${running} msg=${JSON.stringify(opts.message)} model=${opts.model}`);
      await Bun.sleep(5);
      running--;
      const ok = !fail.has(id);
      return { success: ok, response_time: 5, message: ok ? "ok" : "login failed", model: opts.model, session_count: 2, ...(opts.message ? { thinking: "thought" } : {}) };
    },
    async deleteAllSessions(id) {
      return { success: true, message: `deleted for ${id}`, deleted: 3 };
    },
  };
}

describe("core-backed admin routes without a core client", () => {
  test("answer 503 {detail}", async () => {
    const t = await adminApp({ keys: ["k"], accounts });
    t.built.ctx.accountOps = undefined;
    t.built.ctx.selfHandle = undefined;
    for (const [path, body] of [
      ["/admin/accounts/test", { identifier: "u0@x.com" }],
      ["/admin/accounts/test-all", {}],
      ["/admin/accounts/sessions/delete-all", { identifier: "u0@x.com" }],
      ["/admin/test", {}],
      ["/admin/dev/raw-samples/capture", {}],
    ] as const) {
      const r = await call(t, "POST", path, body);
      expect(r.status).toBe(503);
      expect(r.body).toEqual({ detail: "core client not available" });
    }
  });
});

describe("account tests (D11.6)", () => {
  test("one test returns the gateway.md fields and records test_status", async () => {
    const t = await adminApp({ accounts });
    const log: string[] = [];
    t.built.ctx.accountOps = fakeOps(log);
    const r = await call(t, "POST", "/admin/accounts/test", { identifier: "U1@X.com", message: "hi" });
    expect(r.body).toEqual({ account: "u1@x.com", success: true, response_time: 5, message: "ok", model: "core-v4-flash", session_count: 2, test_status: "ok", thinking: "thought", config_writable: false, config_warning: expect.any(String) });
    const listed = (await call(t, "GET", "/admin/accounts?q=u1@")).body.items[0];
    expect(listed.test_status).toBe("ok");
    expect(Date.parse(listed.tested_at)).toBeGreaterThan(0);
    expect((await call(t, "POST", "/admin/accounts/test", {})).status).toBe(400);
    expect((await call(t, "POST", "/admin/accounts/test", { identifier: "nobody@x.com" })).status).toBe(404);
  });

  test("test-all runs session-only with at most 5 at a time, in config order", async () => {
    const t = await adminApp({ accounts });
    const log: string[] = [];
    t.built.ctx.accountOps = fakeOps(log, new Set(["u3@x.com"]));
    const r = await call(t, "POST", "/admin/accounts/test-all", { model: "core-v4-pro" });
    expect(r.body).toMatchObject({ total: 7, success: 6, failed: 1 });
    expect(r.body.results.map((x: any) => x.account)).toEqual(accounts.map((a) => a.email));
    expect(r.body.results[3]).toMatchObject({ success: false, test_status: "failed", message: "login failed" });
    expect(Math.max(...log.map((l) => Number(/running=(\d+)/.exec(l)![1])))).toBe(5);
    expect(log.every((l) => l.includes('msg=""') && l.includes("model=core-v4-pro"))).toBe(true);
  });

  test("delete-all sessions: success passes through, a missing account is success:false", async () => {
    const t = await adminApp({ accounts });
    t.built.ctx.accountOps = fakeOps([]);
    expect((await call(t, "POST", "/admin/accounts/sessions/delete-all", { identifier: "u0@x.com" })).body).toEqual({ success: true, message: "deleted for u0@x.com", deleted: 3 });
    const missing = await call(t, "POST", "/admin/accounts/sessions/delete-all", { identifier: "x@x.com" });
    expect(missing.status).toBe(200);
    expect(missing.body.success).toBe(false);
  });
});

function fakeSelf(t: TestApp, seen: Request[], status = 200, captureIt = true) {
  t.built.ctx.selfHandle = async (req) => {
    seen.push(req);
    const body = await req.clone().json();
    if (captureIt)
      t.built.ctx.captures.record({ label: "completion", chain_key: req.headers.get("x-request-id")!, round: 0, method: "POST", path: "/api/v0/chat/completion", account_id: "u0@x.com", status_code: 200, duration_ms: 1, request_body: '{"prompt":"p"}', response_body: 'data: {"v":"hi"}\n\n' });
    return Response.json(status === 200 ? { id: "chatcmpl-1", model: body.model } : { error: { message: "no" } }, { status });
  };
}

describe("self test (D11.8)", () => {
  test("calls the chat route in process as admin-tester with the first key and defaults", async () => {
    const t = await adminApp({ keys: ["first-key", "second"] });
    const seen: Request[] = [];
    fakeSelf(t, seen);
    const r = await call(t, "POST", "/admin/test", {});
    expect(r.body).toEqual({ success: true, status_code: 200, response: { id: "chatcmpl-1", model: "core-v4-flash" } });
    expect(seen[0]!.headers.get("authorization")).toBe("Bearer first-key");
    expect(seen[0]!.headers.get("x-svc-source")).toBe("admin-tester");
    expect(await seen[0]!.json()).toEqual({ model: "core-v4-flash", messages: [{ role: "user", content: "Hello!" }], stream: false });
  });

  test("no key configured is 400; a failing chat is success:false with its status", async () => {
    expect((await call(await adminApp(), "POST", "/admin/test", {})).status).toBe(400);
    const t = await adminApp({ keys: ["k"] });
    fakeSelf(t, [], 503);
    expect((await call(t, "POST", "/admin/test", { api_key: "other" })).body).toMatchObject({ success: false, status_code: 503 });
  });
});

describe("raw-sample capture (D13.6)", () => {
  test("captures even with captures off, saves the sample and reports it in headers", async () => {
    const t = await adminApp({ keys: ["k"] }, { SVC_DEV_CAPTURE: "0" });
    t.built.ctx.dataDir = scratchDir("svc-capture-");
    const seen: Request[] = [];
    fakeSelf(t, seen);
    const r = await call(t, "POST", "/admin/dev/raw-samples/capture", { message: "ping", sample_id: "cap-1", api_key: "k" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, sample_id: "cap-1", status_code: 200 });
    expect(r.headers.get("x-svc-sample-id")).toBe("cap-1");
    expect(r.headers.get("x-svc-sample-meta")).toBe(r.body.meta_path);
    const meta = JSON.parse(await readFile(r.body.meta_path, "utf8"));
    expect(meta).toMatchObject({ model: "core-v4-flash", stream: true, request: { model: "core-v4-flash", messages: [{ role: "user", content: "ping" }], stream: true } });
    expect(JSON.stringify(meta)).not.toContain('"k"');
    expect(await readFile(r.body.upstream_path, "utf8")).toBe('data: {"v":"hi"}\n\n');
    expect(seen[0]!.headers.get("x-svc-source")).toBe("admin-tester");
    // Forcing is lifted afterwards.
    expect(t.built.ctx.captures.record({ label: "completion", chain_key: seen[0]!.headers.get("x-request-id")!, round: 1, method: "POST", path: "/", account_id: "", status_code: 200, duration_ms: 1, request_body: "", response_body: "" })).toBeNull();
  });

  test("nothing captured is 422; a failed request is 502 with its status and body; a bad sample id is 400", async () => {
    const t = await adminApp({ keys: ["k"] });
    t.built.ctx.dataDir = scratchDir("svc-capture-");
    fakeSelf(t, [], 200, false);
    expect((await call(t, "POST", "/admin/dev/raw-samples/capture", {})).status).toBe(422);
    fakeSelf(t, [], 503);
    const failed = await call(t, "POST", "/admin/dev/raw-samples/capture", {});
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ status_code: 503, response: { error: { message: "no" } } });
    expect(failed.body.detail).toBeString();
    expect((await call(t, "POST", "/admin/dev/raw-samples/capture", { sample_id: "../x" })).status).toBe(400);
  });
});
