// The PoW pool's hand-off, A/B in one process (issue 35): two PowPool implementations (this tree's and another
// copy's, e.g. an older commit's src/core/pow) solving the same small challenges (difficulty 1000, ≈ 0.1–0.3 ms of
// search, what bench/gateway.ts runs core with), in interleaved blocks. Per job: the event loop's own CPU (its
// thread's /proc schedstat — what bounds a gateway's requests/s), the process's CPU (the worker included) and
// wall time. Two loads: one job at a time (the hand-off's full cost: a sleeping worker woken each way) and 64
// "requests" that each burn BUSY_US on the event loop (the rest of a request) and then solve (jobs batched).
//
//   bun bench/pow-handoff.ts --a <dir holding another pool.ts + worker.ts> [--blocks 6] [--n 1500]
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { hashV1 } from "../src/core/pow/hash";
import { parseChallenge, type PowChallenge } from "../src/core/pow/challenge";

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1]! : fallback);
const BLOCKS = Number(flag("blocks", "6"));
const N = Number(flag("n", "1500"));
const BUSY_US = Number(flag("busy", "150"));
const A_DIR = resolve(flag("a", ""));
type Pool = { solve(ch: PowChallenge, signal?: AbortSignal): Promise<number | null>; close(): void };
const A = (await import(join(A_DIR, "pool.ts"))).PowPool as new (n: number) => Pool;
const B = (await import("../src/core/pow/pool")).PowPool as new (n: number) => Pool;

const enc = new TextEncoder();
function challenge(k: number): { ch: PowChallenge; answer: number } {
  const salt = `h${k.toString(16).padStart(15, "0")}`;
  const answer = (k * 7919) % 1000;
  const digest = Buffer.from(hashV1(enc.encode(`${salt}_1775322810_${answer}`))).toString("hex");
  return { answer, ch: parseChallenge({ algorithm: "CoreHashV1", challenge: digest, salt, expire_at: 1775322810, difficulty: 1000, target_path: "/b" }, "CoreHashV1") };
}
const jobs = Array.from({ length: N }, (_, k) => challenge(k));

const mainNs = () => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]);
const procUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
function busy(us: number): void {
  const end = performance.now() + us / 1000;
  while (performance.now() < end);
}

async function oneAtATime(pool: Pool): Promise<number[]> {
  const m0 = mainNs(), p0 = procUs(), t0 = performance.now();
  for (const j of jobs) if ((await pool.solve(j.ch)) !== j.answer) throw new Error("wrong answer");
  return [(mainNs() - m0) / 1000 / N, (procUs() - p0) / N, ((performance.now() - t0) * 1000) / N];
}

async function loaded(pool: Pool): Promise<number[]> {
  let next = 0;
  const m0 = mainNs(), p0 = procUs(), t0 = performance.now();
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < N) {
        const j = jobs[next++]!;
        busy(BUSY_US);
        await new Promise((r) => setImmediate(r));
        if ((await pool.solve(j.ch)) !== j.answer) throw new Error("wrong answer");
      }
    }),
  );
  // The busy work is taken out of the event loop's CPU: what remains is the hand-off (and the loop's own turns).
  return [(mainNs() - m0) / 1000 / N - BUSY_US, (procUs() - p0) / N - BUSY_US, ((performance.now() - t0) * 1000) / N];
}

const pools = { A: new A(1), B: new B(1) };
const wide = { A: new A(1), B: new B(1) };
for (const p of [pools.A, pools.B]) await oneAtATime(p);
for (const p of [wide.A, wide.B]) await loaded(p);
const rows: Record<string, number[][]> = {};
const add = (k: string, v: number[]) => (rows[k] ??= []).push(v);
for (let b = 0; b < BLOCKS; b++) {
  const order = b % 2 === 0 ? (["A", "B"] as const) : (["B", "A"] as const);
  for (const k of order) add(`one ${k}`, await oneAtATime(pools[k]));
  for (const k of order) add(`64 ${k}`, await loaded(wide[k]));
}
for (const p of [pools.A, pools.B, wide.A, wide.B]) p.close();

const med = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const f = (xs: number[]) => `${med(xs).toFixed(1)} [${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}]`;
console.log(`per job, µs, median [range] over ${BLOCKS} blocks of ${N}; A = ${A_DIR}, B = this tree`);
console.log("load            event-loop CPU          process CPU             wall");
for (const [k, v] of Object.entries(rows)) console.log(`${k.padEnd(15)} ${f(v.map((x) => x[0]!)).padEnd(23)} ${f(v.map((x) => x[1]!)).padEnd(23)} ${f(v.map((x) => x[2]!))}`);
process.exit(0);
