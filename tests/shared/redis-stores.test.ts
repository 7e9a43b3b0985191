// The Redis stores against a real redis-server, two "instances" in one process: stored responses with
// their TTL, owner and count bound; file affinity replicated to every instance, including one that starts later.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { REDIS_SERVER, SKIP_REASON, startRedis, type TestRedis } from "../helpers/redis";
import { SharedRedis } from "../../src/shared/redis";
import { RedisResponseStore } from "../../src/shared/redis-responses";
import { RedisFileAffinity } from "../../src/shared/redis-file-affinity";
import { createLogger } from "../../src/http/log";
import type { Caller } from "../../src/http/business-auth";

if (!REDIS_SERVER) console.warn(`skipping tests/shared/redis-stores.test.ts: ${SKIP_REASON}`);
const d = REDIS_SERVER ? describe : describe.skip;
const log = createLogger("error", () => {});

let redis: TestRedis;
const conns: SharedRedis[] = [];
async function conn(prefix: string): Promise<SharedRedis> {
  const c = await SharedRedis.connect(redis.url, prefix);
  conns.push(c);
  return c;
}

const entry = (id: string, owner = "owner-1") => ({ owner, response: { id, object: "response" }, inputTurns: [], outputTurns: [] });

d("Redis stores", () => {
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const c of conns) c.close();
    await redis?.stop();
  });

  test("a response put on one instance is got on another, only by its owner, until its TTL", async () => {
    const a = new RedisResponseStore({ redis: await conn("r1:"), ttlMs: () => 400, maxEntries: () => 100, log });
    const b = new RedisResponseStore({ redis: await conn("r1:"), ttlMs: () => 400, maxEntries: () => 100, log });
    await a.put(entry("resp_1"));
    expect((await b.get("resp_1", "owner-1"))?.response.id).toBe("resp_1");
    expect(await b.get("resp_1", "owner-2")).toBeUndefined();
    expect(await b.delete("resp_1", "owner-2")).toBe(false);
    await Bun.sleep(600);
    expect(await b.get("resp_1", "owner-1")).toBeUndefined();
  });

  test("at most store_max_entries responses: the oldest update goes first", async () => {
    const s = new RedisResponseStore({ redis: await conn("r2:"), ttlMs: () => 60_000, maxEntries: () => 2, log });
    await s.put(entry("resp_a"));
    await Bun.sleep(5);
    await s.put(entry("resp_b"));
    await Bun.sleep(5);
    await s.put(entry("resp_a")); // updated: now the newest
    await Bun.sleep(5);
    await s.put(entry("resp_c"));
    expect(await s.get("resp_b", "owner-1")).toBeUndefined();
    expect((await s.get("resp_a", "owner-1"))?.response.id).toBe("resp_a");
    expect((await s.get("resp_c", "owner-1"))?.response.id).toBe("resp_c");
    expect(await s.delete("resp_c", "owner-1")).toBe(true);
    expect(await s.get("resp_c", "owner-1")).toBeUndefined();
  });

  test("file affinity reaches the other instances and one that starts later", async () => {
    const managed = { mode: "managed" } as Caller;
    const a = new RedisFileAffinity(await conn("f1:"), log);
    const b = new RedisFileAffinity(await conn("f1:"), log);
    await a.start();
    await b.start();
    a.remember("file-1", { account: "x@sim.test" });
    for (let i = 0; i < 100 && b.affinity(["file-1"], managed) === null; i++) await Bun.sleep(10);
    expect(b.affinity(["file-1"], managed)).toBe("x@sim.test");
    const late = new RedisFileAffinity(await conn("f1:"), log);
    await late.start();
    expect(late.affinity(["file-1"], managed)).toBe("x@sim.test");
    // Files of two accounts in one request are still refused on any instance.
    b.remember("file-2", { account: "y@sim.test" });
    for (let i = 0; i < 100 && a.affinity(["file-2"], managed) === null; i++) await Bun.sleep(10);
    expect(() => a.affinity(["file-1", "file-2"], managed)).toThrow();
  });
});
