// The pool, tokens, pass-through and sessions against the simulator over real sockets (issue 5).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app";
import { startCoreSimulator, type CoreSimulator } from "../../src/sim/index";
import type { Config } from "../../src/config/schema";

let sim: CoreSimulator;
const accounts = [
  { email: "a@sim.test", password: "pw-a" },
  { email: "b@sim.test", password: "pw-b" },
  { email: "c@sim.test", password: "pw-c" },
];

beforeAll(async () => {
  sim = await startCoreSimulator({ difficulty: 1, accounts });
});
afterAll(() => sim.stop());

async function app(extra: Config = {}): Promise<TestApp> {
  return makeTestApp({ config: { keys: ["sk-pool"], accounts, ...extra }, env: { SVC_CORE_BASE_URL: sim.url } });
}

const chat = (t: TestApp, content: string, init: { headers?: Record<string, string>; stream?: boolean; signal?: AbortSignal; key?: string } = {}) =>
  t.req("/v1/chat/completions", {
    method: "POST",
    headers: { Authorization: `Bearer ${init.key ?? "sk-pool"}`, ...(init.headers ?? {}) },
    json: { model: "core-v4-flash-nothinking", stream: init.stream ?? false, messages: [{ role: "user", content }] },
    signal: init.signal,
  });

describe("pool against the simulator", () => {
  test("rotation: least recently acquired, never-used accounts first in config order", async () => {
    const t = await app();
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await chat(t, `rotation ${i}`);
      expect(r.status).toBe(200);
      const hist = t.built.ctx.chatHistory.items()[0]!;
      seen.push(hist.account_id);
    }
    expect(seen).toEqual(["a@sim.test", "b@sim.test", "c@sim.test", "a@sim.test", "b@sim.test", "c@sim.test"]);
  });

  test("200 concurrent requests: never more in flight than allowed; 429 exactly when the queue is full", async () => {
    const t = await app({ runtime: { account_max_inflight: 1, global_max_inflight: 2, account_max_queue: 50, queue_wait_seconds: 30 } });
    let maxInFlight = 0;
    const timer = setInterval(() => (maxInFlight = Math.max(maxInFlight, t.built.ctx.pool.totalInFlight())), 1);
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => chat(t, `[[sim:slow-tokens delay_ms=1]] load ${i}`)));
    clearInterval(timer);
    const statuses = results.map((r) => r.status);
    expect(maxInFlight).toBeLessThanOrEqual(2);
    expect(statuses.filter((s) => s === 200).length).toBe(52);
    expect(statuses.filter((s) => s === 429).length).toBe(148);
    const rejected = results.find((r) => r.status === 429)!;
    expect(rejected.headers.get("retry-after")).toBe("5");
    expect((await rejected.json()).error.code).toBe("queue_full");
    expect(t.built.ctx.pool.status()).toMatchObject({ in_use: 0, waiting: 0 });
  }, 60_000);

  test("1,000 streaming requests with a third aborted mid-stream leave in_use = 0 and waiting = 0", async () => {
    const t = await app({ runtime: { account_max_inflight: 4, account_max_queue: 2000, queue_wait_seconds: 60 } });
    const one = async (i: number) => {
      const ac = new AbortController();
      const r = await chat(t, `[[sim:words n=40]] item ${i}`, { stream: true, signal: ac.signal });
      const reader = r.body!.getReader();
      if (i % 3 === 0) {
        await reader.read();
        ac.abort();
        await reader.cancel().catch(() => {});
        return "aborted";
      }
      let text = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      return text.includes("[DONE]") ? "done" : "broken";
    };
    const outcomes: string[] = [];
    for (let batch = 0; batch < 10; batch++) outcomes.push(...(await Promise.all(Array.from({ length: 100 }, (_, k) => one(batch * 100 + k)))));
    expect(outcomes.filter((o) => o === "broken")).toHaveLength(0);
    for (let i = 0; i < 100 && t.built.ctx.pool.status().in_use > 0; i++) await Bun.sleep(20);
    expect(t.built.ctx.pool.status()).toMatchObject({ in_use: 0, waiting: 0 });
  }, 60_000);

  test("an expired token triggers one re-login and the request still succeeds", async () => {
    const t = await app();
    expect((await chat(t, "first", { headers: { "X-Svc-Target-Account": "a@sim.test" } })).status).toBe(200);
    const before = sim.counters.logins;
    sim.expireTokens("a@sim.test");
    const r = await chat(t, "after expiry", { headers: { "X-Svc-Target-Account": "a@sim.test" } });
    expect(r.status).toBe(200);
    expect(sim.counters.logins).toBe(before + 1);
  });

  test("pinned account via X-Svc-Target-Account; unknown → 400 unknown_account", async () => {
    const t = await app();
    const r = await chat(t, "pinned", { headers: { "X-Svc-Target-Account": "C@SIM.TEST" } });
    expect(r.status).toBe(200);
    expect(t.built.ctx.chatHistory.items()[0]!.account_id).toBe("c@sim.test");
    const bad = await chat(t, "pinned", { headers: { "X-Svc-Target-Account": "nobody@sim.test" } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe("unknown_account");
  });

  test("pass-through: a token core accepts works; one it rejects is 401 invalid_upstream_token", async () => {
    const t = await app();
    const login = await fetch(`${sim.url}/api/v0/users/login`, { method: "POST", body: JSON.stringify({ email: "b@sim.test", password: "pw-b" }) });
    const token = (await login.json()).data.biz_data.user.token;
    expect((await chat(t, "my own token", { key: token })).status).toBe(200);
    const bad = await chat(t, "bad token", { key: "sim-not-a-real-token" });
    expect(bad.status).toBe(401);
    expect((await bad.json()).error.code).toBe("invalid_upstream_token");
  });

  test("no accounts: 503 no_accounts with Retry-After 30 (D8.6, revised)", async () => {
    const t = await makeTestApp({ config: { keys: ["sk-pool"] }, env: { SVC_CORE_BASE_URL: sim.url } });
    const r = await chat(t, "x");
    expect(r.status).toBe(503);
    expect(r.headers.get("retry-after")).toBe("30");
  });

  test.each([
    ["none", 0, 0],
    ["single", 1, 0],
    ["all", 0, 1],
  ])("auto_delete %s", async (mode, single, all) => {
    const t = await app({ auto_delete: { mode: mode as "none" } });
    const before = { single: sim.counters.delete_calls, all: sim.counters.delete_all_calls };
    expect((await chat(t, `auto delete ${mode}`, { headers: { "X-Svc-Target-Account": "a@sim.test" } })).status).toBe(200);
    for (let i = 0; i < 50 && sim.counters.delete_calls - before.single < single; i++) await Bun.sleep(10);
    for (let i = 0; i < 50 && sim.counters.delete_all_calls - before.all < all; i++) await Bun.sleep(10);
    expect(sim.counters.delete_calls - before.single).toBe(single);
    expect(sim.counters.delete_all_calls - before.all).toBe(all);
  });

  test("auto_delete all never deletes a session another request of the account is still using", async () => {
    const t = await app({ auto_delete: { mode: "all" }, runtime: { account_max_inflight: 2 } });
    const live0 = sim.counters.deleted_while_live;
    await Promise.all(Array.from({ length: 20 }, (_, i) => chat(t, `[[sim:slow-tokens delay_ms=2]] concurrent ${i}`, { headers: { "X-Svc-Target-Account": "b@sim.test" } })));
    await Bun.sleep(100);
    expect(sim.counters.deleted_while_live).toBe(live0);
  });
});
