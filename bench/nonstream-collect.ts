// The non-stream answer's read from the turn's source to its result (issue 35 target 3): through the turn's
// ReadableStream with `for await` (collectTurn, before) against the loop that drives the same staged source
// (collectStaged, now). The source hands on a "hello" answer's TurnEvents as the turn does (a text batch, then the
// finish batch), through the request's two taps (a recorder in the history tap's place, the request facts).
// Interleaved blocks, the main thread's CPU per answer from schedstat, median and range.
//
//   bun bench/nonstream-collect.ts [--blocks 20] [--n 20000]
import { readFileSync } from "node:fs";
import { collectStaged, collectTurn } from "../src/pipeline/collect-turn";
import { composeStages, stagedStream, type BatchSource } from "../src/pipeline/staged-stream";
import { turnFactsStage } from "../src/metering/turn-facts-tap";
import type { SyncTransformer } from "../src/pipeline/stage";
import type { TurnEvent } from "../src/pipeline/types";

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1]! : fallback);
const BLOCKS = Number(flag("blocks", "20"));
const N = Number(flag("n", "20000"));

const usage = { promptTokens: 69, completionTokens: 15, reasoningTokens: 0, totalTokens: 84 };
const batches = (): TurnEvent[][] => [
  [{ type: "text", text: 'You said: "hello". This answer comes from the core simulator.' }],
  [{ type: "finish", outcome: "stop", usage } as TurnEvent],
];

class Source implements BatchSource<TurnEvent> {
  private i = 0;
  private readonly b = batches();
  async next(): Promise<TurnEvent[] | null> {
    return this.i < this.b.length ? this.b[this.i++]! : null;
  }
  async cancel(): Promise<void> {}
}

const recorder: SyncTransformer<TurnEvent, TurnEvent> = { transform: (ev, c) => c.enqueue(ev) };
const stage = () => composeStages<TurnEvent, TurnEvent>([recorder, turnFactsStage({} as never)]);
const cpu = () => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]);

async function block(mode: "stream" | "loop", n: number): Promise<number> {
  const t = cpu();
  for (let i = 0; i < n; i++) {
    if (mode === "stream") await collectTurn(stagedStream(new Source(), stage()));
    else await collectStaged(new Source(), stage());
  }
  return (cpu() - t) / n / 1000;
}

await block("stream", N);
await block("loop", N);
const out: Record<string, number[]> = { stream: [], loop: [] };
for (let b = 0; b < BLOCKS; b++) for (const m of (b % 2 ? ["stream", "loop"] : ["loop", "stream"]) as ("stream" | "loop")[]) out[m]!.push(await block(m, N));
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
for (const [m, xs] of Object.entries(out)) console.log(`${m.padEnd(7)} ${med(xs).toFixed(2)} µs/answer [${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}]`);
const ratios = out.loop!.map((x, i) => x / out.stream![i]!);
console.log(`loop/stream per block: median ${med(ratios).toFixed(3)} [${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}]; load ${readFileSync("/proc/loadavg", "utf8").trim()}`);
