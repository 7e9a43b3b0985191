// Admin endpoints that reach core, against the simulator: account test, test-all, sessions delete-all,
// the self test and the raw-sample capture (D11.6, D11.8, D13.6).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { makeTestApp, type TestApp } from "../../helpers/app";
import { startCoreSimulator, type CoreSimulator } from "../../../src/sim/index";

let sim: CoreSimulator;
let t: TestApp;
const auth = { Authorization: "Bearer test-admin-key" };

beforeAll(async () => {
  sim = await startCoreSimulator({ difficulty: 1, accounts: [{ email: "a@sim.test", password: "pw-a" }] });
  t = await makeTestApp({
    config: { keys: ["sk-admin-ops"], accounts: [{ email: "a@sim.test", password: "pw-a" }, { email: "broken@sim.test", password: "nope" }] },
    env: { SVC_CORE_BASE_URL: sim.url },
  });
});
afterAll(() => sim.stop());

describe("admin operations that reach core", () => {
  test("account test: login, session, message; test_status becomes ok", async () => {
    const r = await t.req("/admin/accounts/test", { method: "POST", headers: auth, json: { identifier: "a@sim.test", message: "ping" } });
    const body = await r.json();
    expect(r.status).toBe(200);
    expect(body).toMatchObject({ success: true, model: "core-v4-flash" });
    expect(body.response_time).toBeGreaterThanOrEqual(0);
    expect(body.session_count).toBeGreaterThan(0);
    expect(typeof body.thinking).toBe("string");
    const list = await (await t.req("/admin/accounts", { headers: auth })).json();
    expect(list.items.find((a: any) => a.identifier === "a@sim.test").test_status).toBe("ok");
  });

  test("test-all reports each account in config order; a wrong password fails", async () => {
    const r = await t.req("/admin/accounts/test-all", { method: "POST", headers: auth, json: {} });
    const body = await r.json();
    expect(body).toMatchObject({ total: 2, success: 1, failed: 1 });
    expect(body.results.map((x: any) => x.success)).toEqual([true, false]);
    expect(JSON.stringify(body)).not.toContain("pw-a");
  });

  test("sessions delete-all calls core's delete_all", async () => {
    const before = sim.counters.delete_all_calls;
    const r = await t.req("/admin/accounts/sessions/delete-all", { method: "POST", headers: auth, json: { identifier: "a@sim.test" } });
    expect((await r.json()).success).toBe(true);
    expect(sim.counters.delete_all_calls).toBe(before + 1);
  });

  test("self test runs a chat completion through the gateway itself and is not recorded in history", async () => {
    const before = t.built.ctx.chatHistory.items().length;
    const r = await t.req("/admin/test", { method: "POST", headers: auth, json: {} });
    const body = await r.json();
    expect(body.success).toBe(true);
    expect(body.status_code).toBe(200);
    expect(body.response.object).toBe("chat.completion");
    expect(t.built.ctx.chatHistory.items().length).toBe(before);
  });

  test("raw-sample capture saves the upstream stream of one request", async () => {
    const r = await t.req("/admin/dev/raw-samples/capture", { method: "POST", headers: auth, json: { message: "capture me", sample_id: "sample-e2e" } });
    const body = await r.json();
    expect(r.status).toBe(200);
    expect(body.sample_id).toBe("sample-e2e");
    expect(r.headers.get("x-svc-sample-id")).toBe("sample-e2e");
    expect(existsSync(body.upstream_path)).toBe(true);
    expect(readFileSync(body.upstream_path, "utf8")).toContain("event: ready");
    const meta = JSON.parse(readFileSync(body.meta_path, "utf8"));
    expect(JSON.stringify(meta)).not.toContain("sk-admin-ops");
  });
});
