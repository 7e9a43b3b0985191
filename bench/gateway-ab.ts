// Two gateway binaries against the same-calls proxy, in turns, on the non-stream rows of issue 35 target 3 (CPU per
// request and requests/s at 16 and 64 connections, added p50 at 1 connection). For judging one change by its
// same-run ratio on a noisy shared machine: every round runs A, B and the proxy back to back, in a rotated order,
// and each ratio is taken within its round. bench/gateway.ts stays the full measurement.
//
//   bun bench/gateway-ab.ts --a dist/old --b dist/svc-gateway [--rounds 5] [--warm 30000] [--secs 3]
// Prints per round and the median and range over the rounds; CPU is all the process's threads (schedstat).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { freePort, startGatewayProcess, startProxyProcess, waitReady, cpuMs } from "./processes";

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1]! : fallback);
const A = resolve(flag("a", "dist/svc-gateway"));
const B = resolve(flag("b", "dist/svc-gateway"));
const ROUNDS = Number(flag("rounds", "5"));
// The JIT is still compiling the gateway's code until ≈ 28,000 requests (bench/threads-ab.ts), the proxy's after a few hundred.
const WARM = Number(flag("warm", "30000"));
const SECS = Number(flag("secs", "3"));
const ACCOUNTS = ["a", "b", "c", "d"].map((x) => ({ email: `${x}@bench.test`, password: `pw-${x}` }));
const KEY = "sk-bench";

interface T { name: string; url: string; pid: number; stop(): void }


async function one(t: T, prompt: string): Promise<number> {
  const start = performance.now();
  const res = await fetch(`${t.url}/v1/chat/completions`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${KEY}` }, body: JSON.stringify({ model: "core-v4-flash", stream: false, messages: [{ role: "user", content: prompt }] }) });
  if (res.status !== 200) throw new Error(`${t.name}: HTTP ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
  return performance.now() - start;
}

async function load(t: T, conns: number, ms: number) {
  const cpu0 = cpuMs(t.pid);
  const t0 = performance.now();
  let done = 0;
  await Promise.all(Array.from({ length: conns }, async () => { while (performance.now() - t0 < ms) { await one(t, "hello"); done++; } }));
  return { rps: done / ((performance.now() - t0) / 1000), cpu: (cpuMs(t.pid) - cpu0) / done };
}

async function serve(t: T, conns: number, n: number) {
  let started = 0;
  await Promise.all(Array.from({ length: conns }, async () => { while (started++ < n) await one(t, "hello"); }));
}

const simPort = await freePort();
const simProc = Bun.spawn([B, "sim", "--port", String(simPort), "--difficulty", "1000"], { stdout: "ignore", stderr: "inherit" });
const core = `http://127.0.0.1:${simPort}`;
await waitReady(`${core}/_sim/state`);
const config = { keys: [KEY], accounts: ACCOUNTS, runtime: { account_max_inflight: 250, account_max_queue: 2000 }, upstream: { stream_idle_timeout_ms: 120_000 } };
const a: T = { name: "A", ...(await startGatewayProcess(A, core, config)) };
const b: T = { name: "B", ...(await startGatewayProcess(B, core, config)) };
const p: T = { name: "proxy", ...(await startProxyProcess("same-calls", core, ACCOUNTS[0]!)) };
const med = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const rng = (xs: number[], d = 2) => `${med(xs).toFixed(d)} [${Math.min(...xs).toFixed(d)}–${Math.max(...xs).toFixed(d)}]`;
try {
  console.log(`A ${A}\nB ${B}\nload ${readFileSync("/proc/loadavg", "utf8").trim()}`);
  for (const t of [a, b, p]) { await serve(t, 64, WARM); await serve(t, 1, 200); }
  const rows: Record<string, number[]> = {};
  const add = (k: string, v: number) => (rows[k] ??= []).push(v);
  for (let r = 0; r < ROUNDS; r++) {
    const order = [[a, b, p], [b, p, a], [p, a, b]][r % 3]!;
    const lat: Record<string, number[]> = {};
    for (const t of order) { const xs: number[] = []; for (let i = 0; i < 150; i++) xs.push(await one(t, `hello ${i}`)); lat[t.name] = xs; }
    add("A p50+", med(lat.A!) - med(lat.proxy!));
    add("B p50+", med(lat.B!) - med(lat.proxy!));
    const line: string[] = [`round ${r + 1}: p50 +${(med(lat.A!) - med(lat.proxy!)).toFixed(3)} / +${(med(lat.B!) - med(lat.proxy!)).toFixed(3)} ms`];
    for (const c of [16, 64]) {
      const res: Record<string, { rps: number; cpu: number }> = {};
      for (const t of order) res[t.name] = await load(t, c, SECS * 1000);
      for (const n of ["A", "B"]) {
        add(`${n} cpu× ${c}`, res[n]!.cpu / res.proxy!.cpu);
        add(`${n} rps× ${c}`, res[n]!.rps / res.proxy!.rps);
        add(`${n} cpu ms ${c}`, res[n]!.cpu);
      }
      add(`B/A cpu ${c}`, res.B!.cpu / res.A!.cpu);
      add(`proxy cpu ms ${c}`, res.proxy!.cpu);
      line.push(`${c}c cpu A ${res.A!.cpu.toFixed(3)} B ${res.B!.cpu.toFixed(3)} P ${res.proxy!.cpu.toFixed(3)} ms, rps A ${res.A!.rps.toFixed(0)} B ${res.B!.rps.toFixed(0)} P ${res.proxy!.rps.toFixed(0)}`);
    }
    console.log(line.join(" | "));
  }
  console.log(`load ${readFileSync("/proc/loadavg", "utf8").trim()}`);
  for (const [k, v] of Object.entries(rows)) console.log(`${k.padEnd(14)} ${rng(v, 3)}`);
} finally {
  a.stop(); b.stop(); p.stop(); simProc.kill();
}
