// The Redis pool against a real redis-server, several "instances" (each its own connections and instance id)
// in one process: limits hold across them, the queue is one FIFO for all, leases of a dead instance expire,
// Redis going away is a fast 503 and coming back needs no restart.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { redisAvailable, startRedis, type TestRedis } from "../helpers/redis";
import { SharedRedis } from "../../src/shared-state/redis";
import { RedisPool } from "../../src/shared-state/redis-pool";
import { createLogger } from "../../src/util/log";
import type { Lease, PoolLimits } from "../../src/accounts/pool-api";
import { GatewayError } from "../../src/util/gateway-error";

const d = redisAvailable(import.meta.path) ? describe : describe.skip;

let redis: TestRedis;
const opened: { pool: RedisPool; conn: SharedRedis }[] = [];
let prefixSeq = 0;
let prefix = "";

async function instance(accounts: string[], limits: Partial<PoolLimits> = {}, leaseTtlMs = 30_000) {
  const conn = await SharedRedis.connect(redis.url, prefix);
  const state = { accounts: [...accounts], limits: { accountMaxInflight: 1, globalMaxInflight: accounts.length, maxQueue: 50, queueWaitMs: 60_000, ...limits } };
  const pool = new RedisPool({ redis: conn, accounts: () => state.accounts, limits: () => state.limits, leaseTtlMs, log: createLogger("error", () => {}) });
  await pool.start();
  opened.push({ pool, conn });
  return { pool, conn, state };
}

async function rejection(p: Promise<unknown>): Promise<GatewayError> {
  try {
    await p;
  } catch (e) {
    return e as GatewayError;
  }
  throw new Error("expected a rejection");
}

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await Bun.sleep(10);
  }
}

d("shared pool on Redis", () => {
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const o of opened) {
      await o.pool.close();
      o.conn.close();
    }
    await redis?.stop();
  });
  beforeEach(() => {
    // Each test its own key space on the one server.
    prefix = `t${++prefixSeq}:`;
  });

  test("the per-account and global limits hold across instances", async () => {
    const a = await instance(["x", "y"], { accountMaxInflight: 2, globalMaxInflight: 3 });
    const b = await instance(["x", "y"], { accountMaxInflight: 2, globalMaxInflight: 3 });
    const l1 = await a.pool.acquire();
    const l2 = await b.pool.acquire();
    const l3 = await a.pool.acquire();
    expect([l1.account, l2.account, l3.account].sort()).toEqual(["x", "x", "y"]);
    let fourth: Lease | null = null;
    const p = b.pool.acquire().then((l) => (fourth = l));
    await Bun.sleep(300);
    expect(fourth).toBeNull();
    expect(b.pool.status().waiting).toBe(1);
    l2.release();
    await p;
    expect(fourth!.account).toBe(l2.account);
    for (const l of [l1, l3, fourth!]) l.release();
  });

  test("rotation is least-recently-acquired across instances", async () => {
    const a = await instance(["x", "y", "z"], { accountMaxInflight: 5, globalMaxInflight: 15 });
    const b = await instance(["x", "y", "z"], { accountMaxInflight: 5, globalMaxInflight: 15 });
    const order: string[] = [];
    for (let i = 0; i < 6; i++) {
      const l = await (i % 2 ? b : a).pool.acquire();
      order.push(l.account);
      l.release();
    }
    expect(order).toEqual(["x", "y", "z", "x", "y", "z"]);
    expect(a.pool.accountCount()).toBe(3);
    expect(a.pool.accountCount()).toBe(a.pool.status().total);
  });

  test("waiters on different instances are served in arrival order", async () => {
    const insts = [await instance(["x"]), await instance(["x"]), await instance(["x"])];
    const first = await insts[0]!.pool.acquire();
    const served: number[] = [];
    const waits: Promise<void>[] = [];
    for (let i = 0; i < 9; i++) {
      const inst = insts[i % 3]!;
      waits.push(
        inst.pool.acquire().then(async (l) => {
          served.push(i);
          await Bun.sleep(5);
          l.release();
        }),
      );
      // Each arrival reaches Redis before the next one starts.
      await until(() => inst.pool.status().waiting === i + 1);
    }
    first.release();
    await Promise.all(waits);
    expect(served).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  test("queue full and queue timeout are the memory pool's 429s", async () => {
    const a = await instance(["x"], { maxQueue: 1, queueWaitMs: 300 });
    const b = await instance(["x"], { maxQueue: 1, queueWaitMs: 300 });
    const held = await a.pool.acquire();
    const waiting = rejection(a.pool.acquire());
    await until(() => a.pool.status().instance!.waiting === 1);
    const full = await rejection(b.pool.acquire());
    expect([full.status, full.code, full.retryAfter]).toEqual([429, "queue_full", 5]);
    const timedOut = await waiting;
    expect([timedOut.status, timedOut.code]).toEqual([429, "queue_timeout"]);
    held.release();
    const again = await b.pool.acquire();
    expect(again.account).toBe("x");
    again.release();
  });

  test("a waiter whose client left is out of the queue; the slot goes to the next one", async () => {
    const a = await instance(["x"]);
    const b = await instance(["x"]);
    const held = await a.pool.acquire();
    const ac = new AbortController();
    const gone = rejection(a.pool.acquire({ signal: ac.signal }));
    await until(() => a.pool.status().instance!.waiting === 1);
    const next = b.pool.acquire();
    await until(() => b.pool.status().instance!.waiting === 1);
    ac.abort(new Error("client left"));
    expect((await gone).message).toBe("client left");
    held.release();
    const l = await next;
    expect(l.account).toBe("x");
    l.release();
  });

  test("a pinned request waits for its account only; a cooldown set on one instance is seen by the others", async () => {
    const a = await instance(["x", "y"]);
    const b = await instance(["x", "y"]);
    a.pool.setCooldown("x", 60_000);
    await until(() => b.pool.inCooldown("x"));
    expect(b.pool.hasCandidate(new Set(["y"]))).toBe(false);
    const l = await b.pool.acquire();
    expect(l.account).toBe("y");
    // Pinned ignores the cooldown (D5.3).
    const pinned = await b.pool.acquire({ pinned: "x" });
    expect(pinned.account).toBe("x");
    b.pool.clearCooldown("x");
    await until(() => !a.pool.inCooldown("x"));
    l.release();
    pinned.release();
  });

  test("the leases of an instance that stopped renewing them free within the TTL", async () => {
    const dead = await instance(["x"], {}, 1000);
    const alive = await instance(["x"], {}, 1000);
    await dead.pool.acquire();
    // The instance dies: no release, no renewal, no heartbeat.
    await dead.pool.close();
    dead.conn.close();
    const t0 = Date.now();
    const l = await alive.pool.acquire();
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(l.account).toBe("x");
    l.release();
  });

  test("the queued waiters of an instance that died are dropped; the slot goes to a live waiter", async () => {
    const live = await instance(["x"], {}, 1000);
    const dead = await instance(["x"], {}, 1000);
    const held = await live.pool.acquire();
    void dead.pool.acquire().catch(() => {});
    await until(() => dead.pool.status().waiting === 1);
    const next = live.pool.acquire();
    await until(() => live.pool.status().waiting === 2);
    await dead.pool.close();
    dead.conn.close();
    // Once the dead instance's heartbeat lapsed, the live tick drops its waiter from the shared queue.
    await until(() => live.pool.status().waiting === 1);
    held.release();
    const l = await next;
    expect(l.account).toBe("x");
    expect(await live.conn.send("ZCARD", [live.conn.key("pool:queue")])).toBe(0);
    l.release();
  });

  test("a held lease outlives its TTL while its instance renews it", async () => {
    const a = await instance(["x"], {}, 1000);
    const b = await instance(["x"], { queueWaitMs: 2500 }, 1000);
    const held = await a.pool.acquire();
    const err = await rejection(b.pool.acquire());
    expect(err.code).toBe("queue_timeout");
    held.release();
  });

  test("Redis lost: waiters and new requests get 503 store_unavailable fast; back without a restart", async () => {
    const a = await instance(["x"]);
    const b = await instance(["x"]);
    const held = await a.pool.acquire();
    const waiter = rejection(b.pool.acquire());
    await until(() => b.pool.status().instance!.waiting === 1);
    await redis.stop();
    const t0 = Date.now();
    const e1 = await waiter;
    expect([e1.status, e1.code]).toEqual([503, "store_unavailable"]);
    const e2 = await rejection(b.pool.acquire());
    expect([e2.status, e2.code]).toEqual([503, "store_unavailable"]);
    expect(Date.now() - t0).toBeLessThan(2000);
    await until(() => !b.pool.storeHealthy());
    await redis.start();
    await until(() => a.pool.storeHealthy() && b.pool.storeHealthy(), 10_000);
    // The lease a still holds is put back by a's next tick (its stream still runs), so b must wait for it.
    const next = b.pool.acquire();
    let got: Lease | null = null;
    void next.then((l) => (got = l), () => {});
    await Bun.sleep(500);
    expect(got).toBeNull();
    held.release();
    const l = await next;
    expect(l.account).toBe("x");
    l.release();
  }, 20_000);

  test("a waiter queued when Redis restarts (forgetting the queue) gets a 503 instead of waiting for nothing", async () => {
    const a = await instance(["x"], { queueWaitMs: 60_000 });
    const held = await a.pool.acquire();
    const waiter = rejection(a.pool.acquire());
    await until(() => a.pool.status().waiting === 1);
    await redis.stop();
    await redis.start();
    const e = await waiter;
    expect([e.status, e.code]).toEqual([503, "store_unavailable"]);
    // The client reconnects by itself; until then acquiring is a 503 (as a caller would see it, retrying).
    let lease: Lease | null = null;
    for (let i = 0; i < 100 && !lease; i++) {
      try {
        const probe = await a.pool.acquire({ signal: AbortSignal.timeout(200) });
        lease = probe;
      } catch {
        await Bun.sleep(50);
      }
      // The held lease is back in Redis after the restart (renewed by the tick), so only its release frees x.
      if (i === 0) held.release();
    }
    expect(lease?.account).toBe("x");
    lease?.release();
  }, 20_000);

  test("a waiter the shared queue lost (a stall past the heartbeat) is put back by its instance's tick", async () => {
    const a = await instance(["x"]);
    const held = await a.pool.acquire();
    const next = a.pool.acquire();
    await until(() => a.pool.status().waiting === 1);
    await a.conn.send("DEL", [a.conn.key("pool:queue"), a.conn.key("pool:tickets")]);
    await until(() => a.pool.status().waiting === 1 && a.pool.status().instance!.waiting === 1);
    held.release();
    const l = await next;
    expect(l.account).toBe("x");
    l.release();
  });
});
