// A turn's lifetime: ended by the client (the request's signal) or by cancelling the turn's events. Every core call
// of the turn hangs off `work`, which the turn's end aborts and so does the start deadline (D9.8) — the deadline
// aborts only the core work and the turn answers upstream_timeout. The turn's end also settles the live attempt,
// whatever any stream is doing: a pending read that never settles must not keep a slot (issue 15).
import { StartDeadline, startTimeoutError } from "./start-deadline";
import type { LiveAttempt } from "./live-attempt";

export class TurnLife {
  private readonly life = new AbortController();
  private readonly work = new AbortController();
  /** The deadline for the answer to start; the runner pauses it for queue waits and disarms it at the first token. */
  readonly deadline: StartDeadline;
  /** Resolves (to null) when the start deadline passes: a read of core's first event races it. */
  readonly expiry: Promise<null>;
  /** The attempt holding the turn's lease now; the turn's end cancels its events and settles it. */
  current: LiveAttempt | null = null;
  private readonly onClientAbort = () => this.life.abort(this.client.reason ?? new DOMException("client went away", "AbortError"));

  constructor(
    private readonly client: AbortSignal,
    totalTimeoutMs: number,
  ) {
    this.life.signal.addEventListener(
      "abort",
      () => {
        const c = this.current;
        if (!c) return;
        c.source.cancel(this.life.signal.reason).catch(() => {});
        c.settle();
      },
      { once: true },
    );
    this.life.signal.addEventListener("abort", () => this.work.abort(this.life.signal.reason), { once: true });
    let onExpired: () => void = () => {};
    this.expiry = new Promise<null>((resolve) => (onExpired = () => resolve(null)));
    this.deadline = new StartDeadline(totalTimeoutMs, () => {
      this.work.abort(startTimeoutError());
      onExpired();
    });
    // Wired after the listeners: a client gone before the turn began still aborts the core work.
    if (client.aborted) this.onClientAbort();
    else client.addEventListener("abort", this.onClientAbort, { once: true });
    this.deadline.run();
  }

  /** The turn's end (client gone or events cancelled): queue waits hang off it. */
  get signal(): AbortSignal {
    return this.life.signal;
  }

  get ended(): boolean {
    return this.life.signal.aborted;
  }

  /** Core calls (logins, sessions, PoW, completions): aborted by the turn's end and by the start deadline. */
  get workSignal(): AbortSignal {
    return this.work.signal;
  }

  /** Ends the turn from inside (its events were cancelled). */
  end(reason: unknown): void {
    this.life.abort(reason);
  }

  /** The turn no longer listens to the client's signal (it is over, or about to be). */
  detach(): void {
    this.client.removeEventListener("abort", this.onClientAbort);
  }
}
