// CPU per core frame on the gateway's side of core's stream (issue 17), without sockets: the simulator's
// 2,000-word answer (4,007 data frames, captured once over HTTP) decoded from 64 KiB reads, then each step added
// in turn — SSE decode; + the round tracker (JSON parsed once per frame); + the fused reduce/assemble step in
// 256-frame batches, as the core client hands a burst on. Best of several runs, in µs per frame.
//   bun bench/core-frames.ts
import { startCoreSimulator } from "../src/sim/index";
import { RawCore } from "../tests/helpers/sim";
import { SseDecoder } from "../src/core/sse";
import { RoundTracker } from "../src/core/round-tracker";
import { coreToTurnSteps } from "../src/pipeline/core-to-turn";
import { newReport } from "../src/pipeline/turn-assembler";
import { VisibleCleaner } from "../src/pipeline/cleaner";

const ACCOUNT = { email: "bench@sim.test", password: "pw" };
const sim = await startCoreSimulator({ difficulty: 1000, accounts: [ACCOUNT], clock: "real" });
const raw = new RawCore(sim.url);
await raw.loginAs(ACCOUNT);
const body = new Uint8Array(await (await raw.completion(await raw.session(), "[[sim:words n=2000]] write", { pow: await raw.pow() })).arrayBuffer());
await sim.stop();
const reads: Uint8Array[] = [];
for (let i = 0; i < body.length; i += 65536) reads.push(body.subarray(i, i + 65536));
const frameCount = new TextDecoder().decode(body).split("\n").filter((l) => l.startsWith("data:")).length;

type Step = "decode" | "track" | "reduce";
function once(step: Step): number {
  const decoder = new SseDecoder();
  const tracker = new RoundTracker();
  const steps = coreToTurnSteps(
    { thinkingEnabled: false, stripReferenceMarkers: true },
    { exposeThinking: false, newCallId: () => "call", textCleaner: new VisibleCleaner(), thinkingCleaner: new VisibleCleaner(), promptTokens: 5 },
    newReport(),
  );
  let events = 0;
  for (const read of [...reads, null]) {
    const frames = read ? decoder.push(read) : decoder.end();
    if (step === "decode") continue;
    for (const f of frames) tracker.observe(f);
    if (step === "track") continue;
    for (let i = 0; i < frames.length; i += 256) events += steps.push(frames.slice(i, i + 256)).length;
  }
  if (step === "reduce") events += steps.end().length;
  return events;
}

console.log(`${frameCount} frames, ${(body.length / 1024).toFixed(0)} KiB; µs per frame (best of 5 runs of 200 answers)`);
for (const step of ["decode", "track", "reduce"] as const) {
  for (let i = 0; i < 200; i++) once(step);
  let best = Infinity;
  for (let run = 0; run < 5; run++) {
    const t0 = performance.now();
    for (let i = 0; i < 200; i++) once(step);
    best = Math.min(best, ((performance.now() - t0) * 1000) / 200 / frameCount);
  }
  const label = { decode: "SSE decode", track: "+ round tracker (JSON parse)", reduce: "+ reduce/assemble (fused step)" }[step];
  console.log(`${label.padEnd(32)} ${best.toFixed(3)}`);
}
process.exit(0);
