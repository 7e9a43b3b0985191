// PoW benchmark (issue 3): HashV1 hashes per second single-threaded and, on the same inputs in the same run,
// Bun's native SHA3-256 (CryptoHasher) rate; the ratio; solve time p50/p95 at difficulty 144000.
import { hashV1 } from "../src/core/pow/hash";
import { solveRange } from "../src/core/pow/solve";

const N = Number(process.env.POW_BENCH_HASHES ?? 300_000);
const enc = new TextEncoder();
const inputs = Array.from({ length: 1024 }, (_, i) => enc.encode(`0123456789abcdef_1775322810_${i * 137}`));

function rate(fn: (b: Uint8Array) => unknown): number {
  for (let i = 0; i < 20_000; i++) fn(inputs[i & 1023]!);
  const t0 = performance.now();
  for (let i = 0; i < N; i++) fn(inputs[i & 1023]!);
  return N / ((performance.now() - t0) / 1000);
}

const hashRate = rate((b) => hashV1(b));
const hasher = (b: Uint8Array) => new Bun.CryptoHasher("sha3-256").update(b).digest();
const nativeRate = rate(hasher);

// The solver's own loop (prefix encoded once, digits rewritten) is what a real solve runs.
const times: number[] = [];
for (let k = 0; k < 30; k++) {
  const salt = `bench${k}salt`;
  const expireAt = 1775322810 + k;
  const answer = Math.floor(Math.random() * 144000);
  const target = hashV1(enc.encode(`${salt}_${expireAt}_${answer}`));
  const t0 = performance.now();
  const found = solveRange({ salt, expireAt, difficulty: 144000, target });
  times.push(performance.now() - t0);
  if (found !== answer) throw new Error(`solver found ${found}, expected ${answer}`);
}
times.sort((a, b) => a - b);
const solverRate = (72000 * times.length) / (times.reduce((a, b) => a + b, 0) / 1000);
const fmt = (n: number) => `${(n / 1e6).toFixed(2)} M/s`;
console.log(`HashV1 (hash function)      ${fmt(hashRate)}`);
console.log(`native SHA3-256 (same input) ${fmt(nativeRate)}`);
console.log(`ratio HashV1 / native        ${(hashRate / nativeRate).toFixed(2)}`);
console.log(`solver loop (approx.)        ${fmt(solverRate)}`);
console.log(`solve p50 / p95 at 144000    ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms / ${times[Math.floor(times.length * 0.95)]!.toFixed(1)} ms`);
