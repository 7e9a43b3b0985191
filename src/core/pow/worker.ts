// A PoW worker thread: solves one challenge per message, off the event loop (core-upstream §6.5).
// A cancelled search is stopped by the pool terminating this thread, so no cancellation message exists.
import { solve } from "./solve";
import type { PowJob, PowResult } from "./pool";

declare const self: Worker;

self.onmessage = (event: MessageEvent<PowJob>) => {
  const { id, challenge } = event.data;
  let reply: PowResult;
  try {
    reply = { id, answer: solve(challenge) };
  } catch (e) {
    reply = { id, answer: null, error: e instanceof Error ? e.message : String(e) };
  }
  self.postMessage(reply);
};
