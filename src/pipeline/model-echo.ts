// core-upstream.md §7.14: each round's `ready` echoes the model_type the completion was sent with. A
// different echo means core changed behaviour (a renamed or redirected model): worth one warning per
// attempt, never an error, because the answer itself is still good.
import type { CoreEvent } from "./types";

type RoundEvent = Extract<CoreEvent, { type: "round" }>;

/** Whatever can warn: pipeline/ names no logger of http/. */
export interface Warner {
  warn(msg: string, fields?: Record<string, unknown>): void;
}

export function modelEchoCheck(sent: string, log: Warner): ModelEchoCheck {
  return new ModelEchoCheck(sent, log);
}

/** One per attempt, kept while its stream is open: a class, not a closure and its scope (issue 35). */
class ModelEchoCheck {
  private warned = false;

  constructor(
    private readonly sent: string,
    private readonly log: Warner,
  ) {}

  round(ev: RoundEvent): void {
    // A ready without model_type says nothing either way.
    if (this.warned || ev.modelType === undefined || ev.modelType === this.sent) return;
    this.warned = true;
    this.log.warn("core echoed a different model_type than was sent", { sent: this.sent, echoed: ev.modelType, round: ev.round });
  }
}
