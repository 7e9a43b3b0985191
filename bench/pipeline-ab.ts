// Two gateway binaries side by side (issue 34: a change measured "against today"): the same simulator (its own
// process), the bare proxy as the burst's reference, and rounds that alternate which binary goes first, so a slow
// stretch of this shared machine falls on both. Each round gives the B/A ratio of: CPU per non-stream request
// (16 connections), CPU per core token event (long streams minus short ones, as bench/gateway.ts), and the
// 2,000-word burst's last byte (also against the bare proxy). Printed: every round's ratios, their median and
// spread, so the noise is in view.
//
//   bun bench/pipeline-ab.ts --a dist/base/svc-gateway --b dist/svc-gateway [--rounds 5] [--warm 2000] [--requests 400] [--burst-only]
// --burst-only: only the burst, 25 answers per target and round.
import { resolve } from "node:path";
import { RawCore } from "../tests/helpers/sim";
import { freePort, startGatewayProcess, startProxyProcess, waitReady, type BenchProcess, cpuMs } from "./processes";

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1]! : fallback);
if (argv.includes("--help")) {
  console.log("bun bench/pipeline-ab.ts --a <binary> --b <binary> [--rounds 5] [--warm 2000] [--requests 400]");
  process.exit(0);
}
const A = resolve(flag("a", "dist/base/svc-gateway"));
const B = resolve(flag("b", "dist/svc-gateway"));
const ROUNDS = Number(flag("rounds", "5"));
const WARM = Number(flag("warm", "2000"));
const REQUESTS = Number(flag("requests", "400"));
const BURST_ONLY = argv.includes("--burst-only");
const ACCOUNTS = ["a", "b", "c", "d"].map((x) => ({ email: `${x}@bench.test`, password: `pw-${x}` }));
const KEY = "sk-bench";
const LONG = "[[sim:words n=2000]] write";


let rawCore: RawCore;
let pow = "";

async function one(t: BenchProcess & { bare?: boolean }, prompt: string, stream: boolean): Promise<number> {
  const start = performance.now();
  let res: Response;
  if (t.bare) {
    const session = await rawCore.session();
    res = await fetch(t.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", authorization: `Bearer ${rawCore.token}`, "x-core-pow-response": pow },
      body: JSON.stringify({ chat_session_id: session, model_type: "default", parent_message_id: null, prompt, ref_file_ids: [], thinking_enabled: false, search_enabled: false }),
    });
  } else {
    res = await fetch(`${t.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ model: "core-v4-flash", stream, messages: [{ role: "user", content: prompt }] }),
    });
  }
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
  return performance.now() - start;
}

async function cpuPerRequest(t: BenchProcess, conns: number, n: number, prompt: string, stream: boolean): Promise<number> {
  const c0 = cpuMs(t.pid);
  let started = 0;
  await Promise.all(
    Array.from({ length: conns }, async () => {
      while (started < n) {
        started++;
        await one(t, prompt, stream);
      }
    }),
  );
  return (cpuMs(t.pid) - c0) / n;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const f = (n: number, d = 3) => n.toFixed(d);

const simPort = await freePort();
const simProc = Bun.spawn([A, "sim", "--port", String(simPort), "--difficulty", "1000"], { stdout: "ignore", stderr: "inherit" });
const simUrl = `http://127.0.0.1:${simPort}`;
await waitReady(`${simUrl}/_sim/state`);
const setSim = async (sw: Record<string, unknown>) => void (await fetch(`${simUrl}/_sim/config`, { method: "POST", body: JSON.stringify(sw) }));
rawCore = new RawCore(simUrl);
await rawCore.loginAs(ACCOUNTS[0]!);
pow = await rawCore.pow();
const config = { keys: [KEY], accounts: ACCOUNTS, runtime: { account_max_inflight: 250, account_max_queue: 2000 }, upstream: { stream_idle_timeout_ms: 120_000 } };
const a = await startGatewayProcess(A, simUrl, config);
const b = await startGatewayProcess(B, simUrl, config);
const bare = { ...(await startProxyProcess("bare", simUrl, ACCOUNTS[0]!)), bare: true };
try {
  const coreBody = await (await rawCore.completion(await rawCore.session(), LONG, { pow })).text();
  const tokenEvents = coreBody.split("\n").filter((l) => l.startsWith("data:")).length;
  for (const t of BURST_ONLY ? [] : [a, b]) {
    await cpuPerRequest(t, 64, WARM, "hello", false);
    await cpuPerRequest(t, 16, Math.ceil(WARM / 8), "hello", true);
  }
  // The burst's own warm-up (the JIT's code for a long answer).
  for (const t of [a, b, bare]) for (let i = 0; i < 10; i++) await one(t, LONG, true);
  const ratios: Record<string, number[]> = {};
  const add = (k: string, v: number) => (ratios[k] ??= []).push(v);
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? [b, a] : [a, b];
    if (!BURST_ONLY) await cpuRounds(order);
    await setSim({ write: "coalesce" });
    const burst: Record<number, number> = {};
    for (const t of r % 2 ? [bare, b, a] : [a, b, bare]) {
      const runs: number[] = [];
      for (let i = 0; i < (BURST_ONLY ? 25 : 9); i++) runs.push(await one(t, LONG, true));
      burst[t.pid] = median(runs);
    }
    await setSim({ write: "event" });
    add("burst last byte, B/A", burst[b.pid]! / burst[a.pid]!);
    add("burst last byte, A / bare", burst[a.pid]! / burst[bare.pid]!);
    add("burst last byte, B / bare", burst[b.pid]! / burst[bare.pid]!);
    console.log(`round ${r + 1}: ${Object.entries(ratios).map(([k, v]) => `${k} ${f(v.at(-1)!)}`).join("; ")}`);
  }

  async function cpuRounds(order: BenchProcess[]) {
    const ns: Record<number, number> = {};
    for (const t of order) ns[t.pid] = await cpuPerRequest(t, 16, REQUESTS, "hello", false);
    add("non-stream CPU per request, B/A", ns[b.pid]! / ns[a.pid]!);
    add("non-stream CPU per request, A (ms)", ns[a.pid]!);
    add("non-stream CPU per request, B (ms)", ns[b.pid]!);
    const ev: Record<number, number> = {};
    for (const t of order) {
      let c0 = cpuMs(t.pid);
      for (let i = 0; i < 10; i++) await one(t, LONG, true);
      const long = cpuMs(t.pid) - c0;
      c0 = cpuMs(t.pid);
      for (let i = 0; i < 10; i++) await one(t, "[[sim:words n=1]] write", true);
      ev[t.pid] = ((long - cpuMs(t.pid) + c0) * 1000) / (10 * (tokenEvents - 8));
    }
    add("CPU per core token event, B/A", ev[b.pid]! / ev[a.pid]!);
    add("CPU per core token event, A (µs)", ev[a.pid]!);
    add("CPU per core token event, B (µs)", ev[b.pid]!);
  }
  console.log(`A = ${A}\nB = ${B}\ncore token events per long answer: ${tokenEvents}; rounds: ${ROUNDS}`);
  for (const [k, v] of Object.entries(ratios)) console.log(`${k}: median ${f(median(v))}, spread ${f(Math.min(...v))}–${f(Math.max(...v))}`);
} finally {
  for (const t of [a, b, bare]) t.stop();
  simProc.kill();
}
