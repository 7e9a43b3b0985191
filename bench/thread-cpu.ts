// Where the compiled gateway's CPU per non-stream request goes, by thread (issue 35 target 3): the main thread,
// the PoW workers, Bun's HTTP client thread, the garbage collector's helpers, the request log's reader. A CPU
// profile sees only the main thread; this reads every thread's schedstat before and after a load.
//
//   bun run build && bun bench/thread-cpu.ts [--binary dist/svc-gateway] [--warm 30000] [--requests 6000] [--conns 16] [--proxy] [--cpu-prof DIR]
//   bun bench/thread-cpu.ts --config '{"upstream":{"stream_client":"socket","call_client":"socket"}}'   (merged into the gateway's config)
import { readFileSync } from "node:fs";
import { freePort, loadChat, startGatewayProcess, startProxyProcess, threadNs, waitReady } from "./processes";
import { BENCH_ACCOUNTS, flag, hasFlag } from "./args";

const BINARY = flag("binary", "dist/svc-gateway");
const WARM = Number(flag("warm", "30000")); // a settled JIT: see bench/threads-ab.ts
const REQUESTS = Number(flag("requests", "6000"));
const CONNS = Number(flag("conns", "16"));
const ACCOUNTS = BENCH_ACCOUNTS;
const KEY = "sk-bench";
// --proxy: the same-calls proxy (bench/gateway-proxy.ts) instead of the gateway, for the reference's own threads.
const PROXY = hasFlag("proxy");
// --cpu-prof DIR: the gateway also writes a CPU profile of its main thread there when it stops (SIGINT).
const PROF_DIR = flag("cpu-prof", "");
const extra = JSON.parse(flag("config", "{}")) as Record<string, Record<string, unknown>>;
const config: Record<string, unknown> = { keys: [KEY], accounts: ACCOUNTS, runtime: { account_max_inflight: 250, account_max_queue: 2000 } };
for (const [k, v] of Object.entries(extra)) config[k] = { ...(config[k] as object), ...v };

const simPort = await freePort();
const sim = Bun.spawn([BINARY, "sim", "--port", String(simPort), "--difficulty", "1000"], { stdout: "ignore", stderr: "inherit" });
const core = `http://127.0.0.1:${simPort}`;
await waitReady(`${core}/_sim/state`);
const gw = PROXY
  ? await startProxyProcess("same-calls", core, ACCOUNTS[0]!)
  : await startGatewayProcess(BINARY, core, config, PROF_DIR ? { BUN_OPTIONS: `--cpu-prof --cpu-prof-dir=${PROF_DIR} --cpu-prof-interval=200`, BUN_CONFIG_MAX_HTTP_REQUESTS: "65535" } : {});
try {
  await loadChat(gw.url, KEY, WARM, 64);
  const before = new Map(Object.entries(threadNs(gw.pid)));
  const t0 = performance.now();
  await loadChat(gw.url, KEY, REQUESTS, CONNS);
  const secs = (performance.now() - t0) / 1000;
  const after = new Map(Object.entries(threadNs(gw.pid)));
  const rows = [...after].map(([k, v]) => [k, (v - (before.get(k) ?? 0)) / 1000 / REQUESTS] as const).filter(([, us]) => us > 0.5);
  rows.sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((s, [, us]) => s + us, 0);
  console.log(`${PROXY ? "same-calls proxy" : BINARY}: ${REQUESTS} non-stream requests at ${CONNS} conns, ${(REQUESTS / secs).toFixed(0)} req/s, load ${readFileSync("/proc/loadavg", "utf8").trim()}`);
  for (const [k, us] of rows) console.log(`${k.padEnd(24)} ${us.toFixed(1).padStart(8)} µs/request`);
  console.log(`${"all threads".padEnd(24)} ${total.toFixed(1).padStart(8)} µs/request`);
} finally {
  gw.stop();
  // The profile is written as the gateway exits, after its drain.
  if (PROF_DIR) await Bun.sleep(2000);
  sim.kill();
}
