// Issue 32: account health shared across instances on one Redis. A ban seen by one instance puts the account in
// cooldown on all, with the same history; the probe that is due runs once (one instance takes it), and every
// instance sees the account healthy again; an instance started later loads the stored state.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { REDIS_SERVER, SKIP_REASON, startRedis, type TestRedis } from "../helpers/redis";
import { makeTestApp, type TestApp } from "../helpers/app";
import { startCoreSimulator, type CoreSimulator } from "../../src/sim/index";
import { eventually } from "../helpers/live-gateway";

if (!REDIS_SERVER) console.warn(`skipping tests/shared-state/redis-health.test.ts: ${SKIP_REASON}`);
const d = REDIS_SERVER ? describe : describe.skip;

const A = "a@shared-health.test";
const accounts = [{ email: A, password: "pw-a" }];

let redis: TestRedis;
let sim: CoreSimulator;
const apps: TestApp[] = [];

async function instance(prefix: string): Promise<TestApp> {
  const t = await makeTestApp({ config: { accounts }, env: { SVC_CORE_BASE_URL: sim.url, SVC_REDIS_URL: redis.url, SVC_REDIS_PREFIX: prefix } });
  t.built.ctx.health.setPolicy({ credential_rejected: { baseMs: 200, capMs: 1000 } });
  apps.push(t);
  return t;
}

d("account health on Redis", () => {
  beforeAll(async () => {
    redis = await startRedis();
    sim = await startCoreSimulator({ difficulty: 1, accounts });
  }, 60_000);
  afterAll(async () => {
    for (const t of apps) await t.built.close();
    await sim?.stop();
    await redis?.stop();
  });

  test("a failure on one instance is every instance's state; the due probe runs once and all see the account back", async () => {
    const one = await instance("h1:");
    const two = await instance("h1:");
    // A login failure recorded on instance one (as a refused login records it).
    one.built.ctx.health.record(A, "credential_rejected", "login failed: wrong password", "req_1");
    expect(await eventually(() => two.built.ctx.health.get(A).state === "cooling_down")).toBe(true);
    expect(two.built.ctx.health.get(A).events.at(-1)!.kind).toBe("cooldown");
    expect(two.built.ctx.health.get(A).events.some((e) => e.request_id === "req_1")).toBe(true);
    expect(await eventually(() => two.built.ctx.pool.inCooldown(A))).toBe(true);
    // The probe is due in ≈ 200–250 ms; the account logs in fine, so both instances see it healthy.
    expect(await eventually(() => one.built.ctx.health.get(A).state === "healthy" && two.built.ctx.health.get(A).state === "healthy", 5000)).toBe(true);
    expect(sim.requests({ path: "/api/v0/chat_session/fetch_page", account: A }).length).toBe(1);
    const probes = two.built.ctx.health.get(A).events.filter((e) => e.kind === "probe");
    expect(probes.length).toBe(1);
    expect(await eventually(() => !two.built.ctx.pool.inCooldown(A))).toBe(true);
  });

  test("an instance started later loads the stored state", async () => {
    const one = await instance("h2:");
    one.built.ctx.health.setPolicy({ suspected_ban: { baseMs: 60_000 } });
    one.built.ctx.health.record(A, "suspected_ban", "refused", "r1");
    one.built.ctx.health.record(A, "suspected_ban", "refused", "r2");
    expect(one.built.ctx.health.get(A).state).toBe("cooling_down");
    await Bun.sleep(100);
    const late = await instance("h2:");
    const h = late.built.ctx.health.view(A);
    expect(h.state).toBe("cooling_down");
    expect(h.class).toBe("suspected_ban");
    expect(h.events.filter((e) => e.kind === "failure").map((e) => e.request_id)).toEqual(["r2", "r1"]);
  });
});
