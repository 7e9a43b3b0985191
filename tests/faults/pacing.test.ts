// Issue 32: pacing and device identity, measured at the simulator (core's own arrival times): no two completion
// starts on one account closer than its interval, the account's own value over the runtime one, a daily cap
// that moves requests to another account and then answers 503 naming the class, a changed setting applying at
// once; and one derived device id per account, stable across instances, the account's own id winning.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { startCoreSimulator, type CoreSimulator } from "../../src/sim/index";
import { startLiveGateway, type LiveGateway } from "../helpers/live-gateway";
import type { Config } from "../../src/config/schema";

const A = "a@pace.test";
const B = "b@pace.test";
const accounts = [
  { email: A, password: "pw-a" },
  { email: B, password: "pw-b" },
];
const KEY = "sk-pace";

let sim: CoreSimulator;
const gws: LiveGateway[] = [];

beforeAll(async () => {
  sim = await startCoreSimulator({ difficulty: 1, accounts });
});
afterAll(() => sim.stop());
afterEach(async () => {
  sim.reset({ hard: true });
  for (const g of gws.splice(0)) await g.stop();
});

async function gateway(config: Config): Promise<LiveGateway> {
  const g = await startLiveGateway({ config: { keys: [KEY], ...config }, coreUrl: sim.url });
  gws.push(g);
  return g;
}

const chat = (g: LiveGateway, content: string) =>
  fetch(`${g.url}/v1/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({ model: "core-v4-flash-nothinking", messages: [{ role: "user", content }] }),
  });

/** Gaps in ms between consecutive completion arrivals of one account, as the simulator recorded them. */
function gaps(account: string): number[] {
  const at = sim.requests({ path: "/api/v0/chat/completion", account }).map((r) => r.at * 1000);
  return at.slice(1).map((t, i) => t - at[i]!);
}

describe("pacing", () => {
  test("concurrent requests on one account start their completions at least the interval apart", async () => {
    const g = await gateway({ accounts: [accounts[0]!], runtime: { account_max_inflight: 4, account_min_interval_ms: 250 } });
    const rs = await Promise.all([0, 1, 2, 3].map((i) => chat(g, `q${i}`)));
    expect(rs.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const d = gaps(A);
    expect(d.length).toBe(3);
    // 250 ms at the gateway; a few ms of loopback jitter between send and arrival is allowed for.
    for (const gap of d) expect(gap).toBeGreaterThanOrEqual(240);
  });

  test("the account's own min_interval_ms wins over the runtime value; 0 turns pacing off for it", async () => {
    const g = await gateway({ accounts: [{ ...accounts[0]!, min_interval_ms: 0 }], runtime: { account_max_inflight: 4, account_min_interval_ms: 5000 } });
    const rs = await Promise.all([0, 1, 2].map((i) => chat(g, `q${i}`)));
    expect(rs.map((r) => r.status)).toEqual([200, 200, 200]);
    // With the runtime's 5 s the three would span ≥ 10 s; unpaced, they all arrive well within it.
    const d = gaps(A);
    expect(d.reduce((a, b) => a + b, 0)).toBeLessThan(5000);
  });

  test("a daily cap moves requests to the other account, then answers 503 naming daily_cap; raising it applies at once", async () => {
    const g = await gateway({ accounts, runtime: { account_daily_completions: 1 } });
    expect((await chat(g, "one")).status).toBe(200);
    expect((await chat(g, "two")).status).toBe(200);
    expect(sim.requests({ path: "/api/v0/chat/completion", account: A }).length).toBe(1);
    expect(sim.requests({ path: "/api/v0/chat/completion", account: B }).length).toBe(1);
    const r = await chat(g, "three");
    expect(r.status).toBe(503);
    const e = (await r.json()).error;
    expect(e.code).toBe("upstream_unavailable");
    expect(e.message).toContain("daily_cap 2");
    expect(g.gw.ctx.health.get(A).state).toBe("cooling_down");
    expect(g.gw.ctx.health.get(A).class).toBe("daily_cap");
    expect(sim.requests({ path: "/api/v0/chat/completion" }).length).toBe(2);
    // Hot: the operator raises the cap and re-enables the accounts.
    await g.gw.ctx.config.update((c) => {
      c.runtime = { ...c.runtime, account_daily_completions: 5 };
    });
    g.gw.ctx.health.reset(A);
    expect((await chat(g, "four")).status).toBe(200);
  });
});

describe("device identity", () => {
  test("each account logs in with its own derived device id, the same on another instance; its own device_id wins", async () => {
    const own = { email: B, password: "pw-b", device_id: "my-phone-1" };
    const one = await gateway({ accounts: [accounts[0]!, own] });
    const two = await gateway({ accounts: [accounts[0]!, own] });
    for (const g of [one, two]) {
      expect((await chat(g, "x")).status).toBe(200);
      expect((await chat(g, "y")).status).toBe(200);
    }
    const logins = sim.requests({ path: "/api/v0/users/login" });
    const ofA = logins.filter((l) => l.body.email === A).map((l) => l.body.device_id);
    const ofB = logins.filter((l) => l.body.email === B).map((l) => l.body.device_id);
    expect(ofA.length).toBe(2);
    expect(ofA[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(ofA[1]).toBe(ofA[0]);
    expect(ofA[0]).not.toBe("svc-gateway");
    expect(ofB).toEqual(["my-phone-1", "my-phone-1"]);
  });
});
