// Which Redis client (issue 21): Bun's built-in RedisClient against ioredis, on the installed redis-server,
// doing what the gateway does — the pool's Lua script (a tick) and GET/SET — one at a time (latency) and
// 32 at once (throughput). ioredis is not a dependency of the project; to include it:
//
//   mkdir -p /tmp/iob && cd /tmp/iob && bun init -y && bun add ioredis
//   NODE_PATH=/tmp/iob/node_modules bun bench/redis-clients.ts
import { startRedis } from "../tests/helpers/redis";
import { POOL_SCRIPT } from "../src/shared-state/pool-script";

const N = 20_000;
const KEYS = ["leases", "lease_acct", "stamps", "stampseq", "cooldown", "heldout", "queue", "tickets", "qseq", "instances"].map((k) => `bench:pool:${k}`);
const ARGV = ["tick", "inst", "a\nb\nc", "2", "6", "30000", "100", "bench:pool:grant:"];

interface Client {
  name: string;
  eval(): Promise<unknown>;
  set(k: string, v: string): Promise<unknown>;
  get(k: string): Promise<unknown>;
  close(): void;
}

async function measure(c: Client): Promise<string[]> {
  const out: string[] = [];
  const run = async (label: string, op: (i: number) => Promise<unknown>, parallel: number) => {
    for (let i = 0; i < 500; i++) await op(i); // warm-up
    let next = 0;
    const t0 = performance.now();
    await Promise.all(Array.from({ length: parallel }, async () => {
      while (next < N) await op(next++);
    }));
    const s = (performance.now() - t0) / 1000;
    out.push(`${c.name.padEnd(8)} ${label.padEnd(20)} ×${String(parallel).padEnd(3)} ${(N / s).toFixed(0).padStart(7)} ops/s`);
  };
  for (const p of [1, 32]) {
    await run("pool script (tick)", () => c.eval(), p);
    await run("SET+GET", async (i) => {
      await c.set(`bench:k${i % 1000}`, "x".repeat(200));
      await c.get(`bench:k${i % 1000}`);
    }, p);
  }
  return out;
}

const redis = await startRedis();
const lines: string[] = [];
try {
  const bun = new Bun.RedisClient(redis.url);
  await bun.connect();
  lines.push(...(await measure({
    name: "bun",
    eval: () => bun.send("EVAL", [POOL_SCRIPT, String(KEYS.length), ...KEYS, ...ARGV]),
    set: (k, v) => bun.set(k, v),
    get: (k) => bun.get(k),
    close: () => bun.close(),
  })));
  bun.close();
  let IORedis: (new (url: string) => any) | null = null;
  try {
    // A variable specifier: ioredis is optional here and not a project dependency.
    const name = "ioredis";
    IORedis = ((await import(name)) as any).default;
  } catch {
    lines.push("ioredis  not installed: see the header of this file");
  }
  if (IORedis) {
    const io = new IORedis(redis.url);
    lines.push(...(await measure({
      name: "ioredis",
      eval: () => io.eval(POOL_SCRIPT, KEYS.length, ...KEYS, ...ARGV),
      set: (k, v) => io.set(k, v),
      get: (k) => io.get(k),
      close: () => io.disconnect(),
    })));
    io.disconnect();
  }
} finally {
  await redis.stop();
}
console.log((await Bun.$`redis-server --version`.text()).trim());
for (const l of lines) console.log(l);
