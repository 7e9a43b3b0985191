// The Redis stores against a real redis-server, two "instances" in one process: stored responses with
// their TTL, owner and count bound; file affinity replicated to every instance, including one that starts later.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { redisAvailable, startRedis, type TestRedis } from "../helpers/redis";
import { SharedRedis } from "../../src/shared-state/redis";
import { RedisResponseStore } from "../../src/shared-state/redis-responses";
import { RedisFileAffinity } from "../../src/shared-state/redis-file-affinity";
import { createLogger } from "../../src/util/log";
import type { Caller } from "../../src/accounts/caller";
import { ChatHistoryStore } from "../../src/store/chat-history";
import { RedisHistoryReplica } from "../../src/shared-state/redis-history";
import { RedisUsageStore } from "../../src/shared-state/redis-usage";

const d = redisAvailable(import.meta.path) ? describe : describe.skip;
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

  test("chat history: entries, deletions and clears reach the other instances; a late one loads the list", async () => {
    const history = async () => {
      const store = await ChatHistoryStore.open({ path: null, limit: () => 50 });
      await new RedisHistoryReplica(store, await conn("h1:"), log).start();
      return store;
    };
    const until = async (cond: () => boolean) => {
      for (let i = 0; i < 200 && !cond(); i++) await Bun.sleep(10);
      expect(cond()).toBe(true);
    };
    const a = await history();
    const b = await history();
    const id = a.start({ surface: "chat", model: "core-v4-flash", stream: true, caller_id: "k1", user_input: "hello" })!;
    a.append(id, { content: "Hi " });
    a.append(id, { content: "there" });
    await until(() => b.get(id)?.content === "Hi there");
    expect(b.get(id)!.status).toBe("streaming");
    a.finish(id, { status: "success", status_code: 200, finish_reason: "stop" });
    await until(() => b.get(id)?.status === "success");
    const late = await history();
    expect(late.get(id)?.content).toBe("Hi there");
    const id2 = b.start({ surface: "messages", model: "m", stream: false, caller_id: "k2" })!;
    b.finish(id2, { status: "success", content: "ok" });
    await until(() => a.get(id2) !== undefined);
    expect(a.delete(id)).toBe(true);
    await until(() => b.get(id) === undefined && late.get(id) === undefined);
    b.clear();
    await until(() => a.size() === 0 && late.size() === 0);
  });

  test("usage per key: counts from every instance add up everywhere (the quota sees the total); a late one loads them", async () => {
    const a = await RedisUsageStore.open(await conn("u1:"), log);
    const b = await RedisUsageStore.open(await conn("u1:"), log);
    a.add("2026-11-25", "caller:k1", "core-v4-flash", 10, 5);
    b.add("2026-11-25", "caller:k1", "core-v4-flash", 7, 3);
    b.add("2026-11-25", "caller:k1", "core-v4-pro", 1, 1);
    for (let i = 0; i < 200 && (a.tokensOn("caller:k1", "2026-11-25") !== 27 || b.tokensOn("caller:k1", "2026-11-25") !== 27); i++) await Bun.sleep(10);
    expect(a.tokensOn("caller:k1", "2026-11-25")).toBe(27);
    expect(b.tokensOn("caller:k1", "2026-11-25")).toBe(27);
    const late = await RedisUsageStore.open(await conn("u1:"), log);
    const row = late.rows().find((r) => r.model === "core-v4-flash")!;
    expect(row).toEqual({ day: "2026-11-25", key: "caller:k1", model: "core-v4-flash", requests: 2, prompt_tokens: 17, completion_tokens: 8 });
    expect(late.tokensOn("caller:k1", "2026-11-25")).toBe(27);
  });
});
