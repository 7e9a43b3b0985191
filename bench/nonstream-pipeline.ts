// What the gateway's own pipeline costs for a non-stream "hello" answer (issue 35 target 3), in process, no I/O:
// core's body (the simulator's real answer, fetched once) decoded into frames, the round tracker, the reducer and
// the assembler (coreToTurnSteps as the turn builds them, no tools), the accumulator, then the prompt build and
// the chat renderer's JSON. Cumulative rows, main-thread CPU per answer from schedstat. Sizes the "non-stream read
// path" against the ≈ 600 µs the event loop spends on a whole request (bench/thread-cpu.ts).
//
//   bun bench/nonstream-pipeline.ts [--n 20000] [--rounds 3]
//   bun bench/nonstream-pipeline.ts --cells     (the cells each stage allocates per answer, by type: see bench/alloc-types.ts)
import { readFileSync } from "node:fs";
import { heapStats } from "bun:jsc";
import { answerJson, chatTurn, promptOf } from "./answer-path";
import { RawCore, startTestSimulator, TEST_ACCOUNTS } from "../tests/helpers/sim";

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1]! : fallback);
const N = Number(flag("n", "20000"));
const ROUNDS = Number(flag("rounds", "3"));

const sim = await startTestSimulator();
const raw = new RawCore(sim.url);
await raw.loginAs(TEST_ACCOUNTS[0]!);
const body = new TextEncoder().encode(await raw.completionText(await raw.createSession(), "hello", { pow: await raw.solvePow() }));
await sim.stop();

const turn = chatTurn("hello");

/** stage 0: decode; 1: + tracker, reduce, assemble, accumulate; 2: + prompt build and render. */
function answer(stage: number): void {
  answerJson([body], stage >= 2 ? promptOf(turn) : "hello", stage);
}

if (argv.includes("--cells")) {
  for (let s = 0; s < 3; s++) for (let i = 0; i < 3000; i++) answer(s);
  const per: Record<string, number>[] = [];
  // What a census itself allocates (its answer has ≈ 150 keys), read with nothing between two: subtracted.
  Bun.gc(true);
  const e0 = heapStats().objectTypeCounts;
  const e1 = heapStats().objectTypeCounts;
  for (let s = 0; s < 3; s++) {
    Bun.gc(true);
    const before = heapStats().objectTypeCounts;
    for (let i = 0; i < 20; i++) answer(s);
    const after = heapStats().objectTypeCounts;
    per.push(Object.fromEntries(Object.entries(after).map(([k, n]) => [k, (n - (before[k] ?? 0) - ((e1[k] ?? 0) - (e0[k] ?? 0))) / 20])));
  }
  const types = Object.keys(per[2]!).filter((k) => per.some((p) => (p[k] ?? 0) >= 0.5)).sort((a, b) => per[2]![b]! - per[2]![a]!);
  console.log(`cells allocated per answer, cumulative by stage (decode | + reduce … | + prompt, render)`);
  for (const k of types) console.log(`${k.padEnd(24)} ${per.map((p) => (p[k] ?? 0).toFixed(1).padStart(7)).join(" ")}`);
  process.exit(0);
}

const cpu = () => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]);
const rows = ["core's body decoded (SSE → frames)", "+ round tracker, reducer, assembler, accumulator", "+ prompt build, chat renderer's JSON"];
for (let s = 0; s < 3; s++) for (let i = 0; i < N; i++) answer(s);
const out: number[][] = rows.map(() => []);
for (let r = 0; r < ROUNDS; r++)
  for (let s = 0; s < 3; s++) {
    const t = cpu();
    for (let i = 0; i < N; i++) answer(s);
    out[s]!.push((cpu() - t) / N / 1000);
  }
console.log(`${body.byteLength} bytes of core's answer; µs of main-thread CPU per answer, median [range] of ${ROUNDS} rounds of ${N}; load ${readFileSync("/proc/loadavg", "utf8").slice(0, 14)}`);
for (const [i, name] of rows.entries()) {
  const xs = out[i]!.slice().sort((a, b) => a - b);
  console.log(`${name.padEnd(52)} ${xs[xs.length >> 1]!.toFixed(2)} [${xs[0]!.toFixed(2)}–${xs[xs.length - 1]!.toFixed(2)}]`);
}
process.exit(0);
