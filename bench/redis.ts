// Requests per second with the Redis backend against the memory backend (issue 21: target ≥ 0.8×), same
// machine, same run: the compiled gateway, one simulator, one redis-server on loopback, the same load
// (non-stream chat completions, fixed concurrency) alternating memory / redis so drift hits both alike.
// Two shapes: "free" (slots to spare: acquire/release only) and "queued" (4 slots for 32 clients: every
// request waits in the queue and is handed a slot by another's release — the cross-instance hand-off path).
//
//   bun bench/redis.ts [--requests 2000] [--concurrency 32] [--rounds 3]
//
// Needs redis-server (apt-get install -y redis-server). Figures go to docs/PERFORMANCE.md.
import { startRedis } from "../tests/helpers/redis";
import { startBinary, type RunningBinary } from "../tests/helpers/binary";
import { startCoreSimulator } from "../src/sim/index";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const REQUESTS = arg("requests", 2000);
const CONCURRENCY = arg("concurrency", 32);
const ROUNDS = arg("rounds", 3);
const KEY = "sk-bench";
const ACCOUNTS = Array.from({ length: 8 }, (_, i) => ({ email: `u${i}@bench.test`, password: "pw" }));
const SHAPES = {
  free: { account_max_inflight: 4, account_max_queue: 10_000, queue_wait_seconds: 600 },
  queued: { account_max_inflight: 1, global_max_inflight: 4, account_max_queue: 10_000, queue_wait_seconds: 600 },
};

async function load(gw: RunningBinary): Promise<{ rps: number; failures: number }> {
  let next = 0;
  let failures = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        const i = next++;
        const r = await fetch(`${gw.url}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
          body: JSON.stringify({ model: "core-v4-flash", messages: [{ role: "user", content: `bench ${i}` }] }),
        });
        await r.arrayBuffer();
        if (r.status !== 200) failures++;
      }
    }),
  );
  return { rps: REQUESTS / ((performance.now() - t0) / 1000), failures };
}

const redis = await startRedis();
const sim = await startCoreSimulator({ difficulty: 1000, accounts: ACCOUNTS });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const summary: string[] = [];
try {
  for (const [shape, runtime] of Object.entries(SHAPES)) {
    const config = { keys: [KEY], accounts: ACCOUNTS, runtime };
    const results: Record<"memory" | "redis", number[]> = { memory: [], redis: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const backend of ["memory", "redis"] as const) {
        const env: Record<string, string> = { SVC_CORE_BASE_URL: sim.url };
        if (backend === "redis") Object.assign(env, { SVC_REDIS_URL: redis.url, SVC_REDIS_PREFIX: `bench-${shape}-${round}` });
        const gw = await startBinary({ config, env });
        // Warm-up: logins, JIT, connections.
        await load(gw).catch(() => {});
        const r = await load(gw);
        await gw.stop();
        if (r.failures) throw new Error(`${shape} ${backend}: ${r.failures} failed requests`);
        results[backend].push(r.rps);
        console.log(`${shape.padEnd(6)} round ${round + 1} ${backend.padEnd(6)} ${r.rps.toFixed(0)} req/s`);
      }
    }
    const m = median(results.memory);
    const r = median(results.redis);
    summary.push(`${shape.padEnd(6)} memory ${m.toFixed(0)} req/s · redis ${r.toFixed(0)} req/s · ratio ${(r / m).toFixed(2)}× (target ≥ 0.80×)`);
  }
} finally {
  await sim.stop();
  await redis.stop();
}
console.log(`\n${REQUESTS} requests, concurrency ${CONCURRENCY}, ${ACCOUNTS.length} accounts, median of ${ROUNDS}`);
for (const line of summary) console.log(line);
