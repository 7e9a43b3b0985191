// Where the gateway's CPU per non-stream request goes (issue 35 target 3): the gateway from source under
// `bun --cpu-prof`, against the simulator (the binary's `sim`, difficulty 1000), loaded like bench/gateway.ts's
// non-stream rows (64 connections, "hello"), then the main thread's samples summed by area — each sample goes to
// the innermost frame of the project's own code above it (a native call counts for its caller), so `fetch`
// counts for src/core/http.ts. Threads other than the main one (the PoW worker, Bun's HTTP client, GC) are not
// in a JavaScript profile: bench/gateway.ts reads the whole process from /proc.
//
//   bun run build && bun bench/cpu-profile.ts [--warm 6000] [--requests 20000] [--conns 64] [--interval 250]
//   bun bench/cpu-profile.ts --out gw.cpuprofile             (keeps the profile; the scratch directory goes at exit)
//   bun bench/cpu-profile.ts --summarise some.cpuprofile     (the table of an existing profile)
//   bun bench/cpu-profile.ts --cut core-client --out c.cpuprofile   (the chat route cut short: bench/path-split/cuts.ts)
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { freePort, waitReady } from "./processes";
import { scratchDir } from "../tests/helpers/scratch";

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1]! : fallback);
const ROOT = resolve(import.meta.dir, "..");

/** Areas in order: the first whose pattern matches the sample's innermost project frame (its URL) wins. */
const AREAS: [RegExp, string][] = [
  [/src\/core\/pow\//, "PoW hand-off to the worker (core/pow)"],
  [/src\/core\/(http|client|attempt|errors)\.ts/, "core calls: fetch ×3 and their JSON (core/http, client, attempt)"],
  [/src\/core\/|src\/pipeline\/(sse-decode|core-to-turn)|^native:onRSDefault/, "core's stream read and decoded (core/completion, sse, …; JS ReadableStreams)"],
  [/src\/pipeline\//, "pipeline: reduce, patch state, filters, accumulator (pipeline/*)"],
  [/src\/turn\//, "turn: runner, attempts, deadlines (turn/*)"],
  [/src\/ops\/|prom-client/, "ops: metrics (prom-client), request log, timeline, usage (ops/*)"],
  [/src\/store\/|history-tap|src\/config\/persist|^node:fs\/promises/, "chat history and captures (store/*, history-tap, persist)"],
  [/src\/accounts\/|src\/shared\//, "accounts: pool, pacer, sessions (accounts/*)"],
  [/src\/prompt\/|render\.ts|normali[sz]e|src\/models\//, "prompt build, normalise, render"],
  [/src\/http\/|src\/app\.ts|src\/server\.ts|elysia|src\/context\.ts|src\/util\/|^internal:fs\/streams|^native:handle$/, "edge: Elysia, hooks, auth, body, log line, ids (http/*, app, server, util)"],
  [/src\/surfaces\//, "turn service and routes (surfaces/*)"],
  [/^native:$/, "native, no JavaScript caller (HTTP server, sockets, microtasks)"],
];

interface Profile { nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[]; samples: number[] }

export function summarise(p: Profile): { samples: number; rows: [string, number][] } {
  const nodes = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const perNode = new Map<number, number>();
  for (const s of p.samples) perNode.set(s, (perNode.get(s) ?? 0) + 1);
  const sums = new Map<string, number>();
  let total = 0;
  for (const [id, count] of perNode) {
    const leaf = nodes.get(id)!.callFrame;
    if (leaf.functionName === "(idle)" || leaf.functionName === "(root)" || leaf.functionName === "(program)") continue;
    total += count;
    let key = `native:${leaf.url ? "" : leaf.functionName}`;
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const url = nodes.get(cur)!.callFrame.url;
      if (url && url.includes("/")) {
        key = url.replace(/^.*?\/(src|node_modules)\//, "$1/");
        break;
      }
    }
    const area = AREAS.find(([re]) => re.test(key))?.[1] ?? `other: ${key}`;
    sums.set(area, (sums.get(area) ?? 0) + count);
  }
  return { samples: total, rows: [...sums].sort((a, b) => b[1] - a[1]) };
}

function print(p: Profile): void {
  const { samples, rows } = summarise(p);
  console.log(`main-thread samples: ${samples}`);
  for (const [area, n] of rows.slice(0, 20)) console.log(`${((100 * n) / samples).toFixed(1).padStart(5)} %  ${area}`);
}

if (argv.includes("--summarise")) {
  print(await Bun.file(flag("summarise", "")).json());
  process.exit(0);
}

const WARM = Number(flag("warm", "6000"));
const REQUESTS = Number(flag("requests", "20000"));
const CONNS = Number(flag("conns", "64"));
const ACCOUNTS = ["a", "b", "c", "d"].map((x) => ({ email: `${x}@bench.test`, password: `pw-${x}` }));
const simPort = await freePort();
const sim = Bun.spawn([join(ROOT, "dist/svc-gateway"), "sim", "--port", String(simPort), "--difficulty", "1000"], { stdout: "ignore", stderr: "inherit" });
const core = `http://127.0.0.1:${simPort}`;
await waitReady(`${core}/_sim/state`);
const dir = scratchDir("svc-cpu-profile-");
writeFileSync(join(dir, "config.json"), JSON.stringify({ keys: ["sk-bench"], accounts: flag("cut", "") ? ACCOUNTS.slice(0, 3) : ACCOUNTS, runtime: { account_max_inflight: 250, account_max_queue: 2000 }, upstream: { stream_idle_timeout_ms: 120_000 } }));
const profDir = join(dir, "profile");
mkdirSync(profDir);
const port = await freePort();
const env = { PATH: process.env.PATH ?? "", HOME: dir, PORT: String(port), SVC_HOST: "127.0.0.1", SVC_ADMIN_KEY: "bench-admin", SVC_CONFIG_PATH: join(dir, "config.json"), SVC_CORE_BASE_URL: core, BUN_CONFIG_MAX_HTTP_REQUESTS: "65535", SVC_BENCH_CUT: flag("cut", "") };
const preload = flag("cut", "") ? ["--preload", join(ROOT, "bench/path-split/preload.ts")] : [];
const gw = Bun.spawn(["bun", "--cpu-prof", `--cpu-prof-interval=${flag("interval", "250")}`, `--cpu-prof-dir=${profDir}`, ...preload, join(ROOT, "src/main.ts")], { cwd: dir, env, stdout: "ignore", stderr: "inherit" });
const url = `http://127.0.0.1:${port}`;
try {
  await waitReady(`${url}/readyz`);
  const one = async () => {
    const r = await fetch(`${url}/v1/chat/completions`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer sk-bench" }, body: JSON.stringify({ model: "core-v4-flash", stream: false, messages: [{ role: "user", content: "hello" }] }) });
    if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${await r.text()}`);
    await r.arrayBuffer();
  };
  const run = async (n: number) => {
    let started = 0;
    await Promise.all(Array.from({ length: CONNS }, async () => { while (started++ < n) await one(); }));
  };
  // The warm-up is in the profile too (one profile per process); it only dilutes the settled picture.
  await run(WARM);
  await run(REQUESTS);
} finally {
  gw.kill("SIGTERM");
  await gw.exited;
  sim.kill();
}
const file = readdirSync(profDir).find((f) => f.endsWith(".cpuprofile"));
if (!file) throw new Error("no profile written");
if (argv.includes("--out")) {
  copyFileSync(join(profDir, file), flag("out", ""));
  console.log(`profile: ${flag("out", "")}`);
}
print(await Bun.file(join(profDir, file)).json());
