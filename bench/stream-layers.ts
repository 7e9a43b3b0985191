// What one TransformStream layer costs per event in Bun (issue 17): the number behind fusing the svcml detector,
// the cleaner and the finish step into one stage. 4,000 small events through 0…6 identity layers, best of runs.
//   bun bench/stream-layers.ts
const EVENTS = 4000;

async function run(layers: number): Promise<number> {
  let s: ReadableStream<{ type: string; text: string }> = new ReadableStream({
    start(c) {
      for (let i = 0; i < EVENTS; i++) c.enqueue({ type: "text", text: `w${i} ` });
      c.close();
    },
  });
  for (let i = 0; i < layers; i++) s = s.pipeThrough(new TransformStream({ transform: (e, c) => c.enqueue(e) }));
  const t0 = performance.now();
  const r = s.getReader();
  while (!(await r.read()).done);
  return performance.now() - t0;
}

const best: number[] = [];
for (let round = 0; round < 15; round++)
  for (let layers = 0; layers <= 6; layers++) {
    const ms = await run(layers);
    best[layers] = Math.min(best[layers] ?? Infinity, ms);
  }
for (let layers = 0; layers <= 6; layers++) console.log(`${layers} layers: ${((best[layers]! * 1000) / EVENTS).toFixed(2)} µs per event`);
console.log(`one layer ≈ ${(((best[6]! - best[0]!) * 1000) / EVENTS / 6).toFixed(2)} µs per event`);
export {};
