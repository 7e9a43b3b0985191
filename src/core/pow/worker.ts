// A PoW worker thread: solves one challenge per message, off the event loop (core-upstream §6.5).
// A running search is cancelled by the pool terminating this thread. A job the pool posted but dropped
// before it started (its client left while it waited behind another) is flagged in shared memory, and
// answered without a search.
import { solve } from "./solve";
import type { PowJob, PowResult, PowWorkerInit } from "./pool";

declare const self: Worker;

let dropped: Int32Array | null = null;

self.onmessage = (event: MessageEvent<PowJob | PowWorkerInit>) => {
  if ("dropped" in event.data) {
    dropped = new Int32Array(event.data.dropped);
    return;
  }
  const { id, cell, challenge } = event.data;
  let reply: PowResult;
  try {
    reply = { id, answer: dropped && Atomics.load(dropped, cell) !== 0 ? null : solve(challenge) };
  } catch (e) {
    reply = { id, answer: null, error: e instanceof Error ? e.message : String(e) };
  }
  self.postMessage(reply);
};
