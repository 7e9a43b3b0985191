// Two gateway binaries side by side against one simulator (the first binary's `sim`, difficulty 1000): blocks of
// non-stream requests at 64 connections, in turns, after WARM warm-up requests each (default 30,000: the JIT is
// still compiling the gateway's code until ≈ 28,000, at 40–290 µs a request of its thread; bench/warmup-curve.ts);
// per block, each thread group's CPU per request from /proc/<pid>/task/*/schedstat (bench/processes.ts threadNs:
// the main thread, the PoW "Worker", Bun's "HTTP Client", JIT and GC threads). Tells which thread a change moved, where
// bench/gateway-ab.ts gives the process's total against the proxy.
//
//   BLOCKS=8 N=3000 bun bench/threads-ab.ts <binary A> <binary B>     (ports 18931–18933)
//   CONFIG_B='{"upstream":{"stream_client":"socket"}}' bun bench/threads-ab.ts X X   (one binary, two configs)
//   ENV_B='{"SVC_DEV_CAPTURE":"0"}' bun bench/threads-ab.ts X X                      (… or two environments)
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { threadNs } from "./processes";
import { join } from "node:path";
import { tmpdir } from "node:os";
const [binA, binB] = process.argv.slice(2);
const BLOCKS = Number(process.env.BLOCKS ?? 8), N = Number(process.env.N ?? 3000), CONNS = 64;
const sim = Bun.spawn([binA!, "sim", "--port", "18931", "--difficulty", "1000"], { stdout: "ignore", stderr: "ignore" });
async function ready(url: string) { for (let i = 0; i < 100; i++) { try { if ((await fetch(url)).status === 200) return; } catch {} await Bun.sleep(100); } throw new Error("not ready " + url); }
await ready("http://127.0.0.1:18931/_sim/state");
function gw(bin: string, port: number, extra: string | undefined, extraEnv: string | undefined) {
  const dir = mkdtempSync(join(tmpdir(), "thr-"));
  writeFileSync(join(dir, "config.json"), JSON.stringify({ keys: ["sk-b"], accounts: ["a", "b", "c", "d"].map((x) => ({ email: `${x}@b.test`, password: "pw" })), runtime: { account_max_inflight: 250, account_max_queue: 2000 }, ...JSON.parse(extra ?? "{}") }));
  const p = Bun.spawn([bin], { cwd: dir, env: { PATH: process.env.PATH!, HOME: dir, PORT: String(port), SVC_HOST: "127.0.0.1", SVC_ADMIN_KEY: "adm", SVC_CONFIG_PATH: join(dir, "config.json"), SVC_CORE_BASE_URL: "http://127.0.0.1:18931", BUN_CONFIG_MAX_HTTP_REQUESTS: "65535", ...JSON.parse(extraEnv ?? "{}") }, stdout: "ignore", stderr: "ignore" });
  return { p, url: `http://127.0.0.1:${port}` };
}
const A = gw(binA!, 18932, process.env.CONFIG_A, process.env.ENV_A), B = gw(binB!, 18933, process.env.CONFIG_B, process.env.ENV_B);
await ready(`${A.url}/readyz`); await ready(`${B.url}/readyz`);
async function block(g: { p: any; url: string }, n: number) {
  const t0 = threadNs(g.p.pid);
  let started = 0;
  const body = JSON.stringify({ model: "core-v4-flash", stream: false, messages: [{ role: "user", content: "hello" }] });
  await Promise.all(Array.from({ length: CONNS }, async () => { while (started++ < n) { const r = await fetch(`${g.url}/v1/chat/completions`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer sk-b" }, body }); await r.arrayBuffer(); } }));
  const t1 = threadNs(g.p.pid);
  const d: Record<string, number> = {};
  for (const k of Object.keys(t1)) d[k] = ((t1[k]! - (t0[k] ?? 0)) / 1000) / n;
  return d;
}
const WARM = Number(process.env.WARM ?? 30000);
for (const g of [A, B]) await block(g, WARM);
const res: Record<string, Record<string, number[]>> = { A: {}, B: {} };
for (let b = 0; b < BLOCKS; b++) for (const k of (b % 2 ? ["B", "A"] : ["A", "B"]) as ("A" | "B")[]) {
  const d = await block(k === "A" ? A : B, N);
  d.total = Object.values(d).reduce((x, y) => x + y, 0);
  for (const [t, v] of Object.entries(d)) (res[k]![t] ??= []).push(v);
}
const med = (x: number[]) => x.slice().sort((p, q) => p - q)[x.length >> 1]!;
const names = [...new Set([...Object.keys(res.A!), ...Object.keys(res.B!)])].sort((x, y) => med(res.A![y] ?? [0]) - med(res.A![x] ?? [0]));
console.log(`µs per request by thread group, median [range] over ${BLOCKS} blocks of ${N} at ${CONNS} conns; load ${readFileSync("/proc/loadavg", "utf8").slice(0, 15)}`);
for (const t of names.slice(0, 8)) { const a = res.A![t] ?? [0], b = res.B![t] ?? [0]; console.log(`${t.padEnd(16)} A ${med(a).toFixed(1)} [${Math.min(...a).toFixed(0)}–${Math.max(...a).toFixed(0)}]  B ${med(b).toFixed(1)} [${Math.min(...b).toFixed(0)}–${Math.max(...b).toFixed(0)}]`); }
const ratios = res.A!.main!.map((a, i) => res.B!.main![i]! / a), rt = res.A!.total!.map((a, i) => res.B!.total![i]! / a);
console.log(`B/A main per block: median ${med(ratios).toFixed(3)} [${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}]; total ${med(rt).toFixed(3)} [${Math.min(...rt).toFixed(2)}–${Math.max(...rt).toFixed(2)}]`);
A.p.kill(); B.p.kill(); sim.kill();
process.exit(0);
