// How long the compiled gateway (or a reference proxy) takes to reach its steady CPU per request: blocks of
// non-stream requests on one fresh process, each block's CPU per request by thread (bench/processes.ts threadNs).
// The JIT thread's share falls to ≈ 0 once JavaScriptCore has tiered the hot code up; a bench that measures before
// that counts compile time against the gateway. The simulator runs from source (difficulty 1000).
//
//   bun bench/warmup-curve.ts [--binary dist/svc-gateway] [--blocks 15] [--block 4000] [--conns 64]
//   bun bench/warmup-curve.ts --proxy same-calls|same-calls-worker|floor-bun|floor-elysia   (a reference instead)
import { readFileSync } from "node:fs";
import { loadChat, startGatewayProcess, startProxyProcess, startSourceSimulator, threadNs, type ReferenceMode } from "./processes";
import { BENCH_ACCOUNTS, benchConfig, flag } from "./args";

const BLOCKS = Number(flag("blocks", "15"));
const BLOCK = Number(flag("block", "4000"));
const CONNS = Number(flag("conns", "64"));
const PROXY = flag("proxy", "") as "" | ReferenceMode;
const KEY = "sk-bench";

const sim = await startSourceSimulator();
const target = PROXY
  ? await startProxyProcess(PROXY, sim.url, BENCH_ACCOUNTS[0]!)
  : await startGatewayProcess(flag("binary", "dist/svc-gateway"), sim.url, benchConfig(KEY), { BUN_CONFIG_MAX_HTTP_REQUESTS: "65535" });
const SHOWN = ["main", "JITWorker", "Worker", "HTTP Client", "JSCWarmUp", "HeapHelper", "mi-scavenger"];
console.log(`${PROXY || "gateway"}: µs of CPU per request by thread, blocks of ${BLOCK} at ${CONNS} conns; load ${readFileSync("/proc/loadavg", "utf8").slice(0, 15)}`);
console.log(["requests", "total", ...SHOWN].map((h) => h.padStart(13)).join(""));
try {
  for (let b = 1; b <= BLOCKS; b++) {
    const before = threadNs(target.pid);
    await loadChat(target.url, KEY, BLOCK, CONNS);
    const after = threadNs(target.pid);
    const per = (k: string) => ((after[k] ?? 0) - (before[k] ?? 0)) / BLOCK / 1000;
    const total = Object.keys(after).reduce((s, k) => s + per(k), 0);
    console.log([String(b * BLOCK), total.toFixed(0), ...SHOWN.map((k) => per(k).toFixed(0))].map((c) => c.padStart(13)).join(""));
  }
} finally {
  target.stop();
  sim.stop();
}
