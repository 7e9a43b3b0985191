// A PoW worker thread: solves the challenges the pool posts (an array per message: the jobs of one event-loop
// turn), in order, off the event loop (core-upstream §6.5), and answers each as soon as it is solved.
// A running search is cancelled by the pool terminating this thread. A job the pool posted but dropped
// before it started (its client left while it waited behind another) is flagged in shared memory, and
// answered without a search.
import { solve } from "./solve";
import type { PowJob, PowResult, PowWorkerInit } from "./pool";

declare const self: Worker;

let dropped: Int32Array | null = null;

self.onmessage = (event: MessageEvent<PowJob[] | PowWorkerInit>) => {
  if (!Array.isArray(event.data)) {
    dropped = new Int32Array(event.data.dropped);
    return;
  }
  for (const job of event.data) self.postMessage(run(job));
};

function run({ id, cell, challenge }: PowJob): PowResult {
  try {
    return { id, answer: dropped && Atomics.load(dropped, cell) !== 0 ? null : solve(challenge) };
  } catch (e) {
    return { id, answer: null, error: e instanceof Error ? e.message : String(e) };
  }
}
