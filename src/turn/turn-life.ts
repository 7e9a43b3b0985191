// A turn's lifetime: ended by the client (the request's signal) or by cancelling the turn's events. Every core call
// of the turn hangs off `work`, which the turn's end aborts and so does the start deadline (D9.8) — the deadline
// aborts only the core work and the turn answers upstream_timeout. The turn's end also settles the live attempt,
// whatever any stream is doing: a pending read that never settles must not keep a slot (issue 15).
import { StartDeadline, startTimeoutError, type DeadlineOwner } from "./start-deadline";
import type { LiveAttempt } from "./live-attempt";

export class TurnLife implements DeadlineOwner {
  private readonly life = new AbortController();
  private readonly work = new AbortController();
  /** The deadline for the answer to start; the runner pauses it for queue waits and disarms it at the first token. */
  readonly deadline: StartDeadline;
  /** Made when a read first races the deadline, dropped once the answer started (see `expiry`). */
  private expiring: { promise: Promise<null>; resolve: (v: null) => void } | null = null;
  /** The attempt holding the turn's lease now; the turn's end cancels its events and settles it. */
  current: LiveAttempt | null = null;

  constructor(
    private readonly client: AbortSignal,
    totalTimeoutMs: number,
  ) {
    // This object is the listener of both signals (handleEvent): an open stream keeps no closures for them (issue 35).
    this.life.signal.addEventListener("abort", this, { once: true });
    this.deadline = new StartDeadline(totalTimeoutMs, this);
    // Wired after the listener: a client gone before the turn began still aborts the core work.
    if (client.aborted) this.clientLeft();
    else client.addEventListener("abort", this, { once: true });
    this.deadline.run();
  }

  /** The client's signal or the turn's own, aborted. */
  handleEvent(ev: Event): void {
    if (ev.target === this.client) return this.clientLeft();
    const c = this.current;
    if (c) {
      c.source.cancel(this.life.signal.reason).catch(() => {});
      c.settle();
    }
    this.work.abort(this.life.signal.reason);
  }

  private clientLeft(): void {
    this.life.abort(this.client.reason ?? new DOMException("client went away", "AbortError"));
  }

  /** The start deadline passed: the core work is aborted, the turn answers upstream_timeout. */
  deadlinePassed(): void {
    this.work.abort(startTimeoutError());
    this.expiring?.resolve(null);
  }

  /** Resolves (to null) when the start deadline passes: a read of core's first event races it. */
  get expiry(): Promise<null> {
    if (this.expiring) return this.expiring.promise;
    if (this.deadline.expired) return Promise.resolve(null);
    let resolve!: (v: null) => void;
    const promise = new Promise<null>((r) => (resolve = r));
    this.expiring = { promise, resolve };
    return promise;
  }

  /** Core's first token: the deadline no longer applies, and nothing races it any more. */
  answerStarted(): void {
    this.deadline.disarm();
    this.expiring = null;
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
    this.client.removeEventListener("abort", this);
  }
}
