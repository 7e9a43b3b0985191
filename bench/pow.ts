// PoW benchmark (issue 3): HashV1 hashes per second single-threaded and, in the same run and on the same
// messages, Bun's native SHA3-256 (CryptoHasher) rate, and their ratio; the search rate; solve time p50/p95
// at difficulty 144000 over random challenges, in-thread and through the worker pool; and what the pool's
// hand-off itself costs (a thread woken each way), at the small difficulty bench/gateway.ts runs core with.
import { hashV1 } from "../src/core/pow/hash";
import { solve } from "../src/core/pow/solve";
import { PowPool } from "../src/core/pow/pool";
import { parseChallenge } from "../src/core/pow/challenge";

const N = Number(process.env.POW_BENCH_HASHES ?? 400_000);
const RUNS = Number(process.env.POW_BENCH_SOLVES ?? 30);
const enc = new TextEncoder();
// Realistic candidate messages: salt_expireAt_n, 28..33 bytes (one block), as the search hashes them.
const inputs = Array.from({ length: 1024 }, (_, i) => enc.encode(`0123456789abcdef_1775322810_${i * 137}`));

function rate(fn: (b: Uint8Array) => unknown): number {
  for (let i = 0; i < 200_000; i++) fn(inputs[i & 1023]!);
  const t0 = performance.now();
  for (let i = 0; i < N; i++) fn(inputs[i & 1023]!);
  return N / ((performance.now() - t0) / 1000);
}

const hashRate = rate((b) => hashV1(b));
const nativeRate = rate((b) => new Bun.CryptoHasher("sha3-256").update(b).digest());

function randomChallenge(k: number, difficulty = 144000) {
  const salt = `bench${k}_${Math.random().toString(36).slice(2, 10)}`;
  const expire_at = 1775322810 + k;
  const answer = Math.floor(Math.random() * difficulty);
  const challenge = Buffer.from(hashV1(enc.encode(`${salt}_${expire_at}_${answer}`))).toString("hex");
  return { answer, ch: parseChallenge({ algorithm: "CoreHashV1", challenge, salt, expire_at, difficulty, target_path: "/b" }, "CoreHashV1") };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

// Search rate: a challenge with no answer runs all 144000 candidates.
solve({ salt: "warm", expire_at: 1, difficulty: 144000, challenge: "00".repeat(32) });
const t0 = performance.now();
solve({ salt: "full", expire_at: 1, difficulty: 144000, challenge: "00".repeat(32) });
const searchRate = 144000 / ((performance.now() - t0) / 1000);

const inThread: number[] = [];
for (let k = 0; k < RUNS; k++) {
  const { answer, ch } = randomChallenge(k);
  const t = performance.now();
  const found = solve(ch);
  inThread.push(performance.now() - t);
  if (found !== answer) throw new Error(`solver found ${found}, expected ${answer}`);
}
inThread.sort((a, b) => a - b);

// Through the pool (one worker): adds the message round trip; the worker is warmed up first.
const pool = new PowPool(1);
await pool.solve(randomChallenge(-1).ch);
const pooled: number[] = [];
for (let k = 0; k < RUNS; k++) {
  const { answer, ch } = randomChallenge(1000 + k);
  const t = performance.now();
  const found = await pool.solve(ch);
  pooled.push(performance.now() - t);
  if (found !== answer) throw new Error(`pool found ${found}, expected ${answer}`);
}
pooled.sort((a, b) => a - b);

// The hand-off: the same 2,000 challenges at difficulty 1000 (≈ 0.1 ms of search each) solved in-thread and
// through the pool, one at a time; wall time and this process's CPU (both threads) per solve. The difference is
// what the worker costs per request when the search itself is short.
const small = Array.from({ length: 2000 }, (_, k) => randomChallenge(5000 + k, 1000).ch);
const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
async function perSolve(each: (ch: (typeof small)[number]) => unknown): Promise<{ wall: number; cpu: number }> {
  for (const ch of small.slice(0, 200)) await each(ch);
  const c0 = cpuUs();
  const t0 = performance.now();
  for (const ch of small) await each(ch);
  return { wall: ((performance.now() - t0) * 1000) / small.length, cpu: (cpuUs() - c0) / small.length };
}
const smallInThread = await perSolve((ch) => solve(ch));
const smallPooled = await perSolve((ch) => pool.solve(ch));
pool.close();

const fmt = (n: number) => `${(n / 1e6).toFixed(2)} M/s`;
const ms = (n: number) => `${n.toFixed(1)} ms`;
console.log(`HashV1 hashV1() (one message per call)  ${fmt(hashRate)}`);
console.log(`native SHA3-256 (same messages)         ${fmt(nativeRate)}`);
console.log(`ratio HashV1 / native                   ${(hashRate / nativeRate).toFixed(2)}`);
console.log(`search (candidates per second, 1 core)  ${fmt(searchRate)}  (${(searchRate / nativeRate).toFixed(2)} × native)`);
// The answer is uniform in [0, 144000), so the true median solve hashes ~72000 candidates; a median over 30
// random answers scatters by several ms around it.
console.log(`solve at 144000, expected p50            ${ms((72000 / searchRate) * 1000)}  (72000 candidates at the search rate)`);
console.log(`solve at 144000, in-thread, ${RUNS} runs     p50 ${ms(pct(inThread, 0.5))} / p95 ${ms(pct(inThread, 0.95))}`);
console.log(`solve at 144000, pool of 1, ${RUNS} runs     p50 ${ms(pct(pooled, 0.5))} / p95 ${ms(pct(pooled, 0.95))}`);
const us = (n: number) => `${n.toFixed(1)} µs`;
console.log(`solve at 1000, in-thread, per solve       wall ${us(smallInThread.wall)} / CPU ${us(smallInThread.cpu)}`);
console.log(`solve at 1000, pool of 1, per solve       wall ${us(smallPooled.wall)} / CPU ${us(smallPooled.cpu)}`);
console.log(`pool hand-off per solve                   wall +${us(smallPooled.wall - smallInThread.wall)} / CPU +${us(smallPooled.cpu - smallInThread.cpu)}`);
