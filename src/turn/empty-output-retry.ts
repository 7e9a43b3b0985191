// The empty-output retry (D9.6): an attempt whose answer ends empty before anything of it reached the client is
// retried once, on another eligible account (the same one when pinned, when it is the only one, or when no other
// can serve). It reads what the client was shown from the events themselves, not from a stage's side state. The
// turn reader (turn-reader.ts) does the swap; this unit decides, and keeps the events that go out with the retry.
import type { TurnEvent } from "../pipeline/types";
import { showsAnswer } from "../pipeline/turn-accumulator";
import type { RunDeps } from "./types";
import { none } from "../util/none";

/** What a batch of an attempt's events comes to. */
export interface BatchVerdict {
  /** The events to pass on: the whole batch, or those before an empty output that is to be retried. */
  events: TurnEvent[];
  /** The attempt ended empty and nothing was shown: start another one. */
  retry: boolean;
  /** A finish or an error passed: the answer is over. */
  terminal: boolean;
}

/** What the client reads when the answer is empty after the retry, or the retry could not start (D9.6). */
export const emptyOutputError: Extract<TurnEvent, { type: "error" }> = { type: "error", status: 503, code: "upstream_empty_output", message: "Core returned an empty answer." };

export class EmptyOutputRetry {
  private retried = false;
  /** Something of the answer (thinking, visible text, a call) reached the reader. */
  private shown = false;
  /** Events of an attempt that was then retried, passed on with what follows them (they showed nothing). */
  private carried: TurnEvent[] = none();

  constructor(private readonly hooks: Pick<RunDeps, "onEmptyOutput" | "onAnswer"> = {}) {}

  /** Reads a batch of the attempt on `account`; tells account health of empty outputs and of the first answer. */
  scan(batch: TurnEvent[], account: string | null): BatchVerdict {
    let retry = false;
    let terminal = false;
    let passed = 0;
    for (const value of batch) {
      if (value.type === "error" && value.code === "upstream_empty_output") {
        this.hooks.onEmptyOutput?.(account);
        if (!this.retried && !this.shown) {
          retry = true;
          break;
        }
      }
      if (!this.shown && showsAnswer(value)) {
        this.shown = true;
        this.hooks.onAnswer?.(account);
      }
      passed++;
      if (value.type === "finish" || value.type === "error") terminal = true;
    }
    return { events: passed === batch.length ? batch : batch.slice(0, passed), retry, terminal };
  }

  /** The retry is under way: `events` (the empty attempt's last ones) wait to go out with the next attempt's. */
  retrying(events: TurnEvent[]): void {
    this.carried = this.withCarried(events);
    this.retried = true;
  }

  /** `events` preceded by whatever a retried attempt left to pass on. */
  withCarried(events: TurnEvent[]): TurnEvent[] {
    if (this.carried.length === 0) return events;
    const all = [...this.carried, ...events];
    this.carried = none();
    return all;
  }
}

/** The accounts the retry must not use: the tried ones, unless pinned, the only account, or no other can serve (D9.6). */
export function retryExclude(a: { pinned?: string; tried: ReadonlySet<string> } & Pick<RunDeps, "accountCount" | "hasCandidate">): Set<string> {
  if (a.pinned || a.accountCount() <= 1) return new Set<string>();
  const others = new Set(a.tried);
  return a.hasCandidate(others) ? others : new Set<string>();
}
