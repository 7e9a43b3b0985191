// Issue 30: in Redis mode an admin write is acknowledged only once it is shared, and an empty Redis restart
// never loses one. Two gateway processes (bun src/main.ts) on a real redis-server: Redis killed and paused
// (SIGSTOP) under an admin write → 503 store_unavailable, nothing changed anywhere, also after Redis comes back;
// Redis restarted empty with the instance holding the newest write coming back first, and last (SIGSTOP on the
// gateways decides the order); concurrent writes on both instances all survive.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { REDIS_SERVER, SKIP_REASON, startRedis, type TestRedis } from "../helpers/redis";
import { freePort } from "../helpers/binary";
import { eventually } from "../helpers/live-gateway";
import { scratchDir } from "../helpers/scratch";
import { startCoreSimulator, type CoreSimulator } from "../../src/sim/index";

if (!REDIS_SERVER) console.warn(`skipping tests/shared-state/config-sharing.test.ts: ${SKIP_REASON}`);
const d = REDIS_SERVER ? describe : describe.skip;

const MAIN = join(resolve(import.meta.dir, "../.."), "src/main.ts");
const ADMIN_KEY = "share-admin-key";
const ACCOUNTS = [{ email: "a@sim.test", password: "pw-a" }];

interface Gateway {
  url: string;
  path: string;
  out: () => string;
  signal(sig: NodeJS.Signals): void;
  stop(): Promise<void>;
}

let redis: TestRedis;
let sim: CoreSimulator;
const running: Gateway[] = [];

/** `dir`: start again on the config file an earlier process left there. */
async function gateway(prefix: string, dir?: string): Promise<Gateway> {
  const path = join(dir ?? scratchDir("svc-share-"), "config.json");
  if (!dir) writeFileSync(path, JSON.stringify({ keys: ["k0"], accounts: ACCOUNTS }));
  const port = await freePort();
  const proc = Bun.spawn(["bun", MAIN], {
    cwd: dirname(path),
    env: { PATH: process.env.PATH ?? "", HOME: dirname(path), PORT: String(port), SVC_HOST: "127.0.0.1", SVC_ADMIN_KEY: ADMIN_KEY, SVC_CONFIG_PATH: path, SVC_CORE_BASE_URL: sim.url, SVC_REDIS_URL: redis.url, SVC_REDIS_PREFIX: prefix, LOG_LEVEL: "info" },
    stdout: "pipe",
    stderr: "pipe",
  });
  let out = "";
  void (async () => {
    const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      out += new TextDecoder().decode(value);
    }
  })();
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {}
    if (proc.exitCode !== null) throw new Error(`gateway exited: ${await new Response(proc.stderr as ReadableStream).text()}`);
    await Bun.sleep(50);
  }
  const gw: Gateway = {
    url,
    path,
    out: () => out,
    signal: (sig) => proc.kill(sig),
    async stop() {
      proc.kill("SIGCONT");
      proc.kill("SIGKILL");
      await proc.exited;
    },
  };
  running.push(gw);
  return gw;
}

const admin = { Authorization: `Bearer ${ADMIN_KEY}`, "Content-Type": "application/json" };
const addKey = (gw: Gateway, key: string) => fetch(`${gw.url}/admin/keys`, { method: "POST", headers: admin, body: JSON.stringify({ key }) });

/** The managed keys an instance holds (admin reads need no Redis). */
async function keys(gw: Gateway): Promise<string[]> {
  const view = (await (await fetch(`${gw.url}/admin/config`, { headers: admin })).json()) as { keys: string[] };
  return view.keys;
}

const fileOf = (gw: Gateway) => JSON.parse(readFileSync(gw.path, "utf8")) as { keys?: string[]; _config_version?: number };
const stored = async (prefix: string) => ({
  version: Number((await redis.command("GET", [`${prefix}:config:version`])) ?? 0),
  keys: (JSON.parse(((await redis.command("GET", [`${prefix}:config`])) as string | null) ?? "{}") as { keys?: string[] }).keys ?? [],
});

// Bun's client reconnects with a growing back-off: after a restart an instance may take several seconds.
async function until(check: () => Promise<boolean>, ms = 30_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return true;
    await Bun.sleep(50);
  }
  return check().catch(() => false);
}

d("admin writes in Redis mode", () => {
  beforeAll(async () => {
    redis = await startRedis();
    sim = await startCoreSimulator({ difficulty: 1000, accounts: ACCOUNTS });
  }, 60_000);
  afterEach(async () => {
    for (const gw of running.splice(0)) await gw.stop().catch(() => {});
    redis.resume();
    // Every test starts with a running, empty server.
    if (!(await redis.command("PING", []).catch(() => null))) await redis.start();
  }, 30_000);
  afterAll(async () => {
    await sim?.stop();
    await redis?.stop();
  }, 30_000);

  test("Redis killed: 503 store_unavailable ({detail}, Retry-After), nothing changed in memory or file; after an empty restart writes are shared again", async () => {
    const [a, b] = [await gateway("killed"), await gateway("killed")];
    const fileBefore = readFileSync(a.path, "utf8");
    await redis.stop();
    const r = await addKey(a, "k-lost");
    expect(r.status).toBe(503);
    expect(r.headers.get("retry-after")).toBe("10");
    const body = (await r.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(["detail"]);
    expect(String(body.detail)).toContain("shared state store is unavailable");
    expect(await keys(a)).toEqual(["k0"]);
    expect(readFileSync(a.path, "utf8")).toBe(fileBefore);
    // A replacing write and a delete are refused the same way.
    const del = await fetch(`${a.url}/admin/keys/k0`, { method: "DELETE", headers: admin });
    expect(del.status).toBe(503);
    expect(await keys(a)).toEqual(["k0"]);

    await redis.start();
    // Both instances re-seed the empty server; then a write is acknowledged and in effect on both.
    expect(await until(async () => (await addKey(a, "k-after")).status === 200)).toBe(true);
    expect(await until(async () => (await keys(b)).includes("k-after"))).toBe(true);
    expect(await keys(a)).toEqual(["k0", "k-after"]);
    expect(await keys(b)).toEqual(["k0", "k-after"]);
    // The file follows the memory (written after the change is committed).
    expect(await until(async () => fileOf(b).keys?.length === 2)).toBe(true);
    expect(fileOf(b).keys).toEqual(["k0", "k-after"]);
  }, 60_000);

  test("Redis paused: 503 instead of a hang; the write that reaches Redis after it resumes changes nothing", async () => {
    const [a, b] = [await gateway("paused"), await gateway("paused")];
    const before = await stored("paused");
    const fileBefore = readFileSync(a.path, "utf8");
    redis.pause();
    const r = await addKey(a, "k-late");
    expect(r.status).toBe(503);
    expect(r.headers.get("retry-after")).toBe("10");
    expect(await keys(a)).toEqual(["k0"]);
    expect(readFileSync(a.path, "utf8")).toBe(fileBefore);
    redis.resume();
    // The next write on a goes over the same connection, so Redis runs it after the late one.
    expect(await until(async () => (await addKey(a, "k-next")).status === 200)).toBe(true);
    expect(await until(async () => (await keys(b)).includes("k-next"))).toBe(true);
    const after = await stored("paused");
    expect(after.keys).toEqual(["k0", "k-next"]);
    expect(after.version).toBe(before.version + 1);
    expect(await keys(a)).toEqual(["k0", "k-next"]);
    expect(await keys(b)).toEqual(["k0", "k-next"]);
  }, 60_000);

  for (const first of ["the instance with the newest write", "the instance that missed it"] as const)
    test(`Redis restarted empty, ${first} back first: the newest version wins everywhere`, async () => {
      const prefix = first.includes("newest") ? "newest-first" : "older-first";
      const [a, b] = [await gateway(prefix), await gateway(prefix)];
      const v0 = (await stored(prefix)).version;
      // b misses a's acknowledged write: it is stopped while a makes it.
      b.signal("SIGSTOP");
      expect((await addKey(a, "k-acked")).status).toBe(200);
      expect(await stored(prefix)).toEqual({ version: v0 + 1, keys: ["k0", "k-acked"] });
      expect(fileOf(a)._config_version).toBe(v0 + 1);
      if (first.includes("missed")) a.signal("SIGSTOP");
      await redis.stop();
      await redis.start();
      if (first.includes("newest")) {
        expect(await until(async () => (await stored(prefix)).version === v0 + 1)).toBe(true);
        b.signal("SIGCONT");
      } else {
        b.signal("SIGCONT");
        // b re-seeds its older config first...
        expect(await until(async () => (await stored(prefix)).keys.length > 0)).toBe(true);
        expect(await stored(prefix)).toEqual({ version: v0, keys: ["k0"] });
        a.signal("SIGCONT");
      }
      // ...and whichever order, the acknowledged write is what both instances and Redis hold.
      expect(await until(async () => (await keys(b)).includes("k-acked"))).toBe(true);
      expect(await stored(prefix)).toEqual({ version: v0 + 1, keys: ["k0", "k-acked"] });
      expect(await keys(a)).toEqual(["k0", "k-acked"]);
      expect(await until(async () => fileOf(b)._config_version === v0 + 1)).toBe(true);
      expect(fileOf(b)).toEqual(expect.objectContaining({ keys: ["k0", "k-acked"], _config_version: v0 + 1 }));
    }, 120_000);

  test("writes made at the same time on two instances all survive (none erases another)", async () => {
    const [a, b] = [await gateway("concurrent"), await gateway("concurrent")];
    const made = Array.from({ length: 12 }, (_, i) => `k-${i % 2 ? "b" : "a"}-${i}`);
    const statuses = await Promise.all(made.map((k, i) => addKey(i % 2 ? b : a, k).then((r) => r.status)));
    expect(statuses).toEqual(made.map(() => 200));
    const want = ["k0", ...made].sort();
    expect(await until(async () => (await keys(a)).length === want.length && (await keys(b)).length === want.length)).toBe(true);
    expect((await keys(a)).sort()).toEqual(want);
    expect((await keys(b)).sort()).toEqual(want);
    expect((await stored("concurrent")).keys.sort()).toEqual(want);
  }, 60_000);

  test("while Redis is down, the warn lines of rejected requests are one per kind per 10 s (the access log aside)", async () => {
    const a = await gateway("quiet");
    const chat = (i: number) =>
      fetch(`${a.url}/v1/chat/completions`, {
        method: "POST",
        headers: { Authorization: "Bearer k0", "Content-Type": "application/json" },
        body: JSON.stringify({ model: "core-v4-flash", messages: [{ role: "user", content: `during the outage ${i}` }] }),
      }).then(async (r) => (await r.arrayBuffer(), r.status));
    const warm = await chat(-1);
    expect(warm).toBe(200);
    const from = a.out().length;
    await redis.stop();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push(await chat(i));
    expect(statuses).toEqual(Array(40).fill(503));
    const lines = a
      .out()
      .slice(from)
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { level: string; msg: string })
      .filter((l) => (l.level === "warn" || l.level === "error") && l.msg !== "request");
    const perKind = new Map<string, number>();
    for (const l of lines) perKind.set(l.msg, (perKind.get(l.msg) ?? 0) + 1);
    // The outage is seen (so the check below means something), and no kind repeats within the window.
    expect(perKind.size).toBeGreaterThan(0);
    for (const [msg, n] of perKind) expect(`${msg}: ${n}`).toBe(`${msg}: 1`);
  }, 60_000);

  test("SIGHUP in Redis mode: refused while Redis is down (the reason logged); once it is up, shared with the others; the file never written", async () => {
    const [a, b] = [await gateway("reload"), await gateway("reload")];
    const current = JSON.parse(readFileSync(a.path, "utf8")) as Record<string, unknown>;
    const text = JSON.stringify({ ...current, keys: ["k0", "k-reloaded"] });
    writeFileSync(a.path, text);
    const outcomes = () =>
      a
        .out()
        .split("\n")
        .filter((l) => l.includes('"configuration reloaded"') || l.includes('"configuration not reloaded"'))
        .map((l) => JSON.parse(l) as { msg: string; reason?: string });
    await redis.stop();
    a.signal("SIGHUP");
    expect(await eventually(() => outcomes().length === 1, 10_000)).toBe(true);
    expect(outcomes()[0]).toEqual(expect.objectContaining({ msg: "configuration not reloaded" }));
    expect(outcomes()[0]!.reason).toContain("shared store is unavailable");
    expect(await keys(a)).toEqual(["k0"]);
    await redis.start();
    // The next SIGHUP once the instances are back on the (empty) server. Redis holding the config says that one
    // of them has reconnected, not that `a` has: until `a` has, a reload is refused again, so SIGHUP is repeated
    // (an operator would) until one is applied, and every refusal names the unreachable store.
    expect(await until(async () => (await stored("reload")).keys.length > 0)).toBe(true);
    for (let tries = 0; tries < 20 && outcomes().at(-1)!.msg !== "configuration reloaded"; tries++) {
      const seen = outcomes().length;
      a.signal("SIGHUP");
      expect(await eventually(() => outcomes().length === seen + 1, 10_000)).toBe(true);
      if (outcomes().at(-1)!.msg !== "configuration reloaded") {
        expect(outcomes().at(-1)!.reason).toContain("shared store is unavailable");
        await Bun.sleep(200);
      }
    }
    expect(outcomes().at(-1)!.msg).toBe("configuration reloaded");
    expect(await until(async () => (await keys(b)).includes("k-reloaded"))).toBe(true);
    expect(await keys(a)).toEqual(["k0", "k-reloaded"]);
    expect(readFileSync(a.path, "utf8")).toBe(text);
  }, 90_000);

  for (const olderFirst of [true, false])
    test(`every instance stopped, Redis restarted empty, the ${olderFirst ? "older" : "newer"} file first: the highest _config_version wins`, async () => {
      const prefix = olderFirst ? "files-older" : "files-newer";
      const [a, b] = [await gateway(prefix), await gateway(prefix)];
      const v0 = (await stored(prefix)).version;
      b.signal("SIGSTOP");
      expect((await addKey(a, "k-acked")).status).toBe(200);
      const [dirA, dirB] = [dirname(a.path), dirname(b.path)];
      for (const gw of running.splice(0)) await gw.stop();
      expect(fileOf(a)._config_version).toBe(v0 + 1);
      expect(fileOf(b)._config_version ?? 0).toBe(v0);
      await redis.stop();
      await redis.start();
      const first = await gateway(prefix, olderFirst ? dirB : dirA);
      // The first instance seeds the empty Redis with its own file...
      expect(await stored(prefix)).toEqual(olderFirst ? { version: v0, keys: ["k0"] } : { version: v0 + 1, keys: ["k0", "k-acked"] });
      const second = await gateway(prefix, olderFirst ? dirA : dirB);
      // ...and the acknowledged write is what both hold in the end.
      for (const gw of [first, second]) expect(await until(async () => (await keys(gw)).includes("k-acked"))).toBe(true);
      expect(await stored(prefix)).toEqual({ version: v0 + 1, keys: ["k0", "k-acked"] });
    }, 90_000);
});
