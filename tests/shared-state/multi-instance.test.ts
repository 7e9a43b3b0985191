// Two and three compiled gateways on one Redis and one simulator (issue 21): the global limits hold under
// 500 concurrent requests (checked from the simulator's own count of streaming bodies per account), an
// instance killed with SIGKILL mid-stream frees its leases within the TTL while the others keep serving.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { redisAvailable, startRedis, type TestRedis } from "../helpers/redis";
import { freePort, startBinary, type RunningBinary } from "../helpers/binary";
import { startCoreSimulator, type CoreSimulator } from "../../src/sim/index";

const d = redisAvailable(import.meta.path) ? describe : describe.skip;

const ACCOUNTS = [
  { email: "a@sim.test", password: "pw-a" },
  { email: "b@sim.test", password: "pw-b" },
  { email: "c@sim.test", password: "pw-c" },
];
const KEY = "sk-multi";
const SLOW = "[[sim:slow-tokens first_token_ms=10 delay_ms=1]]";

let redis: TestRedis;
let sim: CoreSimulator;
const running: RunningBinary[] = [];

async function gateway(prefix: string, runtime: Record<string, unknown>): Promise<RunningBinary> {
  const gw = await startBinary({
    config: { keys: [KEY], accounts: ACCOUNTS, runtime, store: { lease_ttl_seconds: 3 } },
    env: { SVC_CORE_BASE_URL: sim.url, SVC_REDIS_URL: redis.url, SVC_REDIS_PREFIX: prefix },
  });
  running.push(gw);
  return gw;
}

function chat(gw: RunningBinary, prompt: string, stream = false): Promise<Response> {
  return fetch(`${gw.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "core-v4-flash", stream, messages: [{ role: "user", content: prompt }] }),
  });
}

d("several gateways on one Redis", () => {
  beforeAll(async () => {
    redis = await startRedis();
    sim = await startCoreSimulator({ difficulty: 1000, accounts: ACCOUNTS });
  }, 120_000);
  afterAll(async () => {
    for (const gw of running) await gw.stop("SIGKILL").catch(() => {});
    await sim?.stop();
    await redis?.stop();
  });

  test("500 concurrent requests over three instances never exceed the per-account or global limit", async () => {
    const runtime = { account_max_inflight: 2, global_max_inflight: 5, account_max_queue: 1000, queue_wait_seconds: 120 };
    const gws = [await gateway("limits", runtime), await gateway("limits", runtime), await gateway("limits", runtime)];
    sim.reset();
    const results = await Promise.all(
      Array.from({ length: 500 }, async (_, i) => {
        const r = await chat(gws[i % 3]!, `${SLOW} request ${i}`);
        await r.arrayBuffer();
        return r.status;
      }),
    );
    expect(results.filter((s) => s !== 200)).toEqual([]);
    const { streams } = sim.state();
    expect(streams.peak_total).toBeLessThanOrEqual(5);
    // The limits were actually reached, so the check above means something.
    expect(streams.peak_total).toBe(5);
    for (const n of Object.values(streams.peak)) expect(n).toBeLessThanOrEqual(2);
    for (const gw of gws) await gw.stop();
  }, 120_000);

  test("an instance killed mid-stream frees its leases within the TTL; the other keeps serving", async () => {
    // The lease TTL is 3 s and the queue wait 10 s: a slot that only frees by the TTL is served, not a 429.
    const runtime = { account_max_inflight: 1, global_max_inflight: 3, account_max_queue: 100, queue_wait_seconds: 10 };
    const [victim, survivor] = [await gateway("kill", runtime), await gateway("kill", runtime)];
    // Three long streams on the victim take every slot.
    const long = `[[sim:slow-tokens first_token_ms=20000]]`;
    // Their connections break when the victim dies: that is expected, not an unhandled error.
    const streams = [0, 1, 2].map(() => chat(victim, long, true).then((r) => r.arrayBuffer()).catch(() => null));
    const status = async () => (await (await fetch(`${survivor.url}/admin/queue/status`, { headers: { authorization: `Bearer ${survivor.adminKey}` } })).json()) as { in_use: number };
    for (let i = 0; i < 200 && (await status()).in_use < 3; i++) await Bun.sleep(50);
    expect((await status()).in_use).toBe(3);
    await victim.stop("SIGKILL");
    await Promise.all(streams);
    const r = await chat(survivor, "after the crash");
    expect(r.status).toBe(200);
    await r.arrayBuffer();
    // Nothing is left held: the victim's three leases expired, the survivor's own one was released.
    for (let i = 0; i < 100 && (await status()).in_use > 0; i++) await Bun.sleep(50);
    expect((await status()).in_use).toBe(0);
    await survivor.stop();
  }, 60_000);

  test("an admin change on one instance is in effect on the others; a joining instance adopts the shared config", async () => {
    const a = await gateway("config", { account_max_inflight: 2 });
    const b = await gateway("config", { account_max_inflight: 2 });
    const settings = async (gw: RunningBinary) => (await (await fetch(`${gw.url}/admin/settings`, { headers: { authorization: `Bearer ${gw.adminKey}` } })).json()) as { runtime: { account_max_inflight: number } };
    const put = await fetch(`${a.url}/admin/settings`, {
      method: "PUT",
      headers: { authorization: `Bearer ${a.adminKey}`, "content-type": "application/json" },
      body: JSON.stringify({ runtime: { account_max_inflight: 7 } }),
    });
    expect(put.status).toBe(200);
    for (let i = 0; i < 60 && (await settings(b)).runtime.account_max_inflight !== 7; i++) await Bun.sleep(50);
    expect((await settings(b)).runtime.account_max_inflight).toBe(7);
    // The queue status of b applies it too (its pool reads the adopted config).
    const q = (await (await fetch(`${b.url}/admin/queue/status`, { headers: { authorization: `Bearer ${b.adminKey}` } })).json()) as { max_inflight_per_account: number };
    expect(q.max_inflight_per_account).toBe(7);
    // A third instance whose own file says 2 follows the shared config, not its file.
    const c = await gateway("config", { account_max_inflight: 2 });
    expect((await settings(c)).runtime.account_max_inflight).toBe(7);
    for (const gw of [a, b, c]) await gw.stop();
  }, 60_000);

  test("a response stored on one instance is read, continued and deleted on another", async () => {
    const [a, b] = [await gateway("responses", {}), await gateway("responses", {})];
    const call = (gw: RunningBinary, method: string, path: string, body?: unknown) =>
      fetch(`${gw.url}${path}`, { method, headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    const created = (await (await call(a, "POST", "/v1/responses", { model: "core-v4-flash", input: "remember me" })).json()) as { id: string; output: unknown };
    expect(created.id).toStartWith("resp_");
    const read = await call(b, "GET", `/v1/responses/${created.id}`);
    expect(read.status).toBe(200);
    expect(((await read.json()) as { output: unknown }).output).toEqual(created.output);
    // Another caller's key does not see it (owner check holds across instances).
    const other = await fetch(`${b.url}/v1/responses/${created.id}`, { headers: { authorization: "Bearer sk-someone-else" } });
    expect(other.status).not.toBe(200);
    const next = await call(b, "POST", "/v1/responses", { model: "core-v4-flash", input: "and now?", previous_response_id: created.id });
    expect(next.status).toBe(200);
    expect((await call(b, "DELETE", `/v1/responses/${created.id}`)).status).toBe(200);
    expect((await call(a, "GET", `/v1/responses/${created.id}`)).status).toBe(404);
    for (const gw of [a, b]) await gw.stop();
  }, 60_000);

  test("three instances log an account in once between them; the others use its token", async () => {
    const one = [{ email: "solo@sim.test", password: "pw-solo" }];
    sim.addAccount(one[0]!);
    const start = () =>
      startBinary({
        config: { keys: [KEY], accounts: one, runtime: { account_max_inflight: 4, account_max_queue: 100 } },
        env: { SVC_CORE_BASE_URL: sim.url, SVC_REDIS_URL: redis.url, SVC_REDIS_PREFIX: "logins" },
      }).then((gw) => (running.push(gw), gw));
    const gws = [await start(), await start(), await start()];
    sim.reset();
    const statuses = await Promise.all(
      Array.from({ length: 9 }, async (_, i) => {
        const r = await chat(gws[i % 3]!, `login storm ${i}`);
        await r.arrayBuffer();
        return r.status;
      }),
    );
    expect(statuses).toEqual(Array(9).fill(200));
    expect(sim.counters.logins).toBe(1);
    for (const gw of gws) await gw.stop();
  }, 60_000);

  test("Redis down at start: the gateway says so and exits non-zero", async () => {
    const closed = `redis://:topsecret@127.0.0.1:${await freePort()}`;
    const err = await startBinary({ config: { keys: [KEY], accounts: ACCOUNTS }, env: { SVC_CORE_BASE_URL: sim.url, SVC_REDIS_URL: closed } }).then(
      () => "started",
      (e: Error) => e.message,
    );
    expect(err).toMatch(/binary exited with 1/);
    expect(err).toContain("cannot reach Redis at redis://:***@127.0.0.1:");
    expect(err).not.toContain("topsecret");
  }, 60_000);

  test("Redis stopped mid-load: 503 store_unavailable in each surface's shape, then service resumes by itself", async () => {
    const runtime = { account_max_inflight: 2, account_max_queue: 200, queue_wait_seconds: 60 };
    const [a, b] = [await gateway("outage", runtime), await gateway("outage", runtime)];
    let stop = false;
    const seen: number[] = [];
    // Steady load on both instances while Redis goes away and comes back.
    const load = (async () => {
      for (let i = 0; !stop; i++) {
        const r = await chat(i % 2 ? a : b, `load ${i}`).catch(() => null);
        if (r) {
          seen.push(r.status);
          await r.arrayBuffer();
        }
      }
    })();
    await Bun.sleep(300);
    await redis.stop();
    const t0 = Date.now();
    const chatErr = await chat(a, "during the outage");
    const chatMs = Date.now() - t0;
    expect(chatErr.status).toBe(503);
    expect(((await chatErr.json()) as { error: { code: string } }).error.code).toBe("store_unavailable");
    expect(chatMs).toBeLessThan(2000);
    const msg = await fetch(`${b.url}/msgapi/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": KEY, "content-type": "application/json", "anthropic-version": "2023-06-01" },
      body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 64, messages: [{ role: "user", content: "during the outage" }] }),
    });
    expect(msg.status).toBe(503);
    const body = (await msg.json()) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe("error");
    expect(body.error.message).toContain("shared state store is unavailable");
    expect(JSON.stringify(body)).not.toContain("redis://");
    await redis.start();
    let back = 0;
    for (let i = 0; i < 100 && back === 0; i++) {
      const r = await chat(b, "after the outage");
      await r.arrayBuffer();
      if (r.status === 200) back = 1;
      else await Bun.sleep(100);
    }
    expect(back).toBe(1);
    stop = true;
    await load;
    // Under load, every answer was a success or the outage's 503: nothing hung, nothing else broke.
    expect(seen.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    for (const gw of [a, b]) await gw.stop();
  }, 60_000);

  test("waiters on two instances are served in arrival order; queue status shows global and own figures", async () => {
    const runtime = { account_max_inflight: 1, global_max_inflight: 1, account_max_queue: 100, queue_wait_seconds: 60 };
    const [a, b] = [await gateway("order", runtime), await gateway("order", runtime)];
    const status = async (gw: RunningBinary) =>
      (await (await fetch(`${gw.url}/admin/queue/status`, { headers: { authorization: `Bearer ${gw.adminKey}` } })).json()) as { in_use: number; waiting: number; instance: { in_use: number; waiting: number } };
    // One long answer holds the only slot while the others queue.
    const holder = chat(a, "[[sim:slow-tokens first_token_ms=1500]] hold").then((r) => r.arrayBuffer());
    for (let i = 0; i < 100 && (await status(b)).in_use < 1; i++) await Bun.sleep(20);
    const served: number[] = [];
    const waits: Promise<void>[] = [];
    for (let i = 0; i < 8; i++) {
      const gw = i % 2 ? b : a;
      waits.push(chat(gw, `order ${i}`).then(async (r) => {
        await r.arrayBuffer();
        served.push(i);
      }));
      // Each arrival is in the shared queue before the next is sent.
      for (let j = 0; j < 100 && (await status(gw)).waiting < i + 1; j++) await Bun.sleep(10);
    }
    // a's view of the shared figures is at most one tick (200 ms) old.
    for (let j = 0; j < 100 && (await status(a)).waiting < 8; j++) await Bun.sleep(10);
    const sa = await status(a);
    expect(sa.in_use).toBe(1);
    expect(sa.waiting).toBe(8);
    expect(sa.instance).toEqual(expect.objectContaining({ in_use: 1, waiting: 4 }));
    expect((await status(b)).instance).toEqual(expect.objectContaining({ in_use: 0, waiting: 4 }));
    await holder;
    await Promise.all(waits);
    expect(served).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const gw of [a, b]) await gw.stop();
  }, 60_000);

  test("a rejected login cools the account down on every instance; the other does not try again", async () => {
    const wrong = [{ email: "a@sim.test", password: "not-the-password" }];
    const start = () =>
      startBinary({ config: { keys: [KEY], accounts: wrong }, env: { SVC_CORE_BASE_URL: sim.url, SVC_REDIS_URL: redis.url, SVC_REDIS_PREFIX: "cooldown" } }).then((gw) => (running.push(gw), gw));
    const [a, b] = [await start(), await start()];
    sim.reset();
    const first = await chat(a, "with a wrong password");
    await first.arrayBuffer();
    expect(first.status).toBeGreaterThanOrEqual(400);
    const cooled = async () =>
      ((await (await fetch(`${b.url}/admin/queue/status`, { headers: { authorization: `Bearer ${b.adminKey}` } })).json()) as { cooldown_accounts: string[] }).cooldown_accounts;
    for (let i = 0; i < 100 && (await cooled()).length === 0; i++) await Bun.sleep(20);
    expect(await cooled()).toEqual(["a@sim.test"]);
    const second = await chat(b, "on the other instance");
    await second.arrayBuffer();
    expect(second.status).toBeGreaterThanOrEqual(400);
    expect(sim.counters.login_failures).toBe(1);
    for (const gw of [a, b]) await gw.stop();
  }, 60_000);
});
