// The deadline for an answer to start (D9.8 as amended, issue 30 item 10): `upstream.total_timeout_ms` bounds
// attempts, account failover, logins, PoW and core's first token together. Queue waits have their own limit
// (runtime.queue_wait_seconds), so the clock stops while the turn waits for a slot; once core's first event
// arrives the deadline is disarmed for good: an answer that has started is never cut by it.
import { GatewayError } from "../util/gateway-error";

export const DEFAULT_TOTAL_TIMEOUT_MS = 120_000;

/** What a turn that ran out of time before its answer started is answered (before or inside the stream). */
export const startTimeoutMessage = "No answer from core started within upstream.total_timeout_ms.";
export const startTimeoutError = () => new GatewayError(503, "upstream_timeout", startTimeoutMessage);

/** Who is told when the deadline passes. */
export interface DeadlineOwner {
  deadlinePassed(): void;
}

export class StartDeadline {
  private remaining: number;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private since = 0;
  private done = false;
  /** Set when the time ran out (never after disarm). */
  expired = false;

  /** `owner.deadlinePassed` runs once, on the timer, if the deadline passes while armed and running. */
  constructor(
    ms: number,
    private readonly owner: DeadlineOwner,
  ) {
    this.remaining = ms;
  }

  /** Starts (or resumes) the clock. */
  run(): void {
    if (this.done || this.timer) return;
    this.since = performance.now();
    // The timer's callback is shared and gets this deadline as its argument: no closure per turn.
    this.timer = setTimeout(fire, Math.max(0, this.remaining), this);
  }

  /** The timer's end. */
  fired(): void {
    this.timer = null;
    this.done = true;
    this.expired = true;
    this.owner.deadlinePassed();
  }

  /** Stops the clock (a queue wait) and keeps what is left. */
  pause(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.remaining -= performance.now() - this.since;
  }

  /** The answer started (or the turn is over): the deadline no longer applies. */
  disarm(): void {
    this.done = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

function fire(d: StartDeadline): void {
  d.fired();
}
