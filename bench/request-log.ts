// What the request log costs (issue 31): two compiled gateways on one simulator (in its own process), one with
// `request_log.enabled: true` (the default) and one with it off, measured in the same interleaved rounds:
// non-stream requests per second and CPU per request at 16 and 64 connections. The budget is ≤ 3 % of req/s.
//
//   bun run build && bun bench/request-log.ts [--binary dist/svc-gateway] [--rounds 4] [--ms 4000] [--warm 8000] [--aa]
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { freePort, startGatewayProcess, waitReady, type BenchProcess } from "./processes";

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1]! : fallback);
const BINARY = resolve(flag("binary", "dist/svc-gateway"));
const ROUNDS = Number(flag("rounds", "4"));
const MS = Number(flag("ms", "4000"));
const WARM = Number(flag("warm", "8000"));
// --aa: both gateways with the log on, to read the bench's own bias and noise between two identical targets.
const AA = argv.includes("--aa");
const ACCOUNTS = ["a", "b", "c", "d"].map((x) => ({ email: `${x}@bench.test`, password: `pw-${x}` }));
const KEY = "sk-bench";

function cpuMs(pid: number): number {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    } catch {}
  }
  return ns / 1e6;
}

async function one(url: string): Promise<void> {
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${KEY}` },
    body: JSON.stringify({ model: "core-v4-flash", messages: [{ role: "user", content: "hello" }] }),
  });
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
}

async function load(t: BenchProcess, conns: number, ms: number) {
  const cpu0 = cpuMs(t.pid);
  const t0 = performance.now();
  let done = 0;
  await Promise.all(
    Array.from({ length: conns }, async () => {
      while (performance.now() - t0 < ms) {
        await one(t.url);
        done++;
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  return { rps: done / secs, cpu: (cpuMs(t.pid) - cpu0) / done };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const f = (n: number, d = 2) => n.toFixed(d);

const simPort = await freePort();
const simProc = Bun.spawn([BINARY, "sim", "--port", String(simPort), "--difficulty", "1000"], { stdout: "ignore", stderr: "inherit" });
const sim = `http://127.0.0.1:${simPort}`;
await waitReady(`${sim}/_sim/state`);
const base = { keys: [KEY], accounts: ACCOUNTS, runtime: { account_max_inflight: 250, account_max_queue: 2000 } };
const on = await startGatewayProcess(BINARY, sim, base);
const off = await startGatewayProcess(BINARY, sim, AA ? base : { ...base, request_log: { enabled: false } });
try {
  for (const t of [on, off]) {
    let warmed = 0;
    while (warmed < WARM) {
      await Promise.all(Array.from({ length: 64 }, () => one(t.url)));
      warmed += 64;
    }
  }
  const ratio: Record<string, number[]> = {};
  const add = (k: string, v: number) => (ratio[k] ??= []).push(v);
  for (let r = 0; r < ROUNDS; r++) {
    for (const c of [16, 64]) {
      const order = r % 2 ? [off, on] : [on, off];
      const res = new Map<BenchProcess, Awaited<ReturnType<typeof load>>>();
      for (const t of order) res.set(t, await load(t, c, MS));
      add(`rps ${c}`, res.get(on)!.rps / res.get(off)!.rps);
      add(`cpu ${c}`, res.get(on)!.cpu / res.get(off)!.cpu);
      add(`on rps ${c}`, res.get(on)!.rps);
      add(`off rps ${c}`, res.get(off)!.rps);
    }
  }
  for (const c of [16, 64])
    console.log(
      `non-stream, ${c} conns: log on ${f(median(ratio[`on rps ${c}`]!), 0)} req/s, off ${f(median(ratio[`off rps ${c}`]!), 0)} req/s → on/off ${f(median(ratio[`rps ${c}`]!), 3)} (rounds: ${ratio[`rps ${c}`]!.map((x) => f(x, 3)).join(" ")}); CPU per request on/off ${f(median(ratio[`cpu ${c}`]!), 3)}`,
    );
  const rows = await (await fetch(`${on.url}/admin/requests?limit=1`, { headers: { Authorization: "Bearer bench-admin" } })).text();
  console.log(`request log rows sample: ${rows.slice(0, 120)}…`);
} finally {
  on.stop();
  off.stop();
  simProc.kill();
}
