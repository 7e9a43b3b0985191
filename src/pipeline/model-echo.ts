// core-upstream.md §7.14: each round's `ready` echoes the model_type the completion was sent with. A
// different echo means core changed behaviour (a renamed or redirected model): worth one warning per
// attempt, never an error, because the answer itself is still good.
import type { CoreEvent } from "./types";

type RoundEvent = Extract<CoreEvent, { type: "round" }>;

/** Whatever can warn: pipeline/ names no logger of http/. */
export interface Warner {
  warn(msg: string, fields?: Record<string, unknown>): void;
}

export function modelEchoCheck(sent: string, log: Warner): (ev: RoundEvent) => void {
  let warned = false;
  return (ev) => {
    // A ready without model_type says nothing either way.
    if (warned || ev.modelType === undefined || ev.modelType === sent) return;
    warned = true;
    log.warn("core echoed a different model_type than was sent", { sent, echoed: ev.modelType, round: ev.round });
  };
}
