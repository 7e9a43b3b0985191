// A turn's lifetime: ended by the client (the request's signal) or by cancelling the turn's events. Every core call
// of the turn hangs off `work`, which the turn's end aborts and so does the start deadline (D9.8) — the deadline
// aborts only the core work and the turn answers upstream_timeout. The turn's end also settles the live attempt,
// whatever any stream is doing: a pending read that never settles must not keep a slot (issue 15).
import { StartDeadline, startTimeoutError, type DeadlineOwner } from "./start-deadline";
import type { LiveAttempt } from "./live-attempt";

export class TurnLife implements DeadlineOwner {
  /** Why the turn ended (set once); the turn's end aborts `work` (one controller per turn: issue 35). */
  private over: { reason: unknown } | null = null;
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
    this.deadline = new StartDeadline(totalTimeoutMs, this);
    // This object is the client signal's listener (handleEvent): an open stream keeps no closure for it (issue 35).
    // A client gone before the turn began still aborts the core work.
    if (client.aborted) this.clientLeft();
    else client.addEventListener("abort", this, { once: true });
    this.deadline.run();
  }

  /** The client's signal aborted. */
  handleEvent(): void {
    this.clientLeft();
  }

  private clientLeft(): void {
    this.end(this.client.reason ?? new DOMException("client went away", "AbortError"));
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

  get ended(): boolean {
    return this.over !== null;
  }

  /** Why the turn ended (what a reader is thrown); undefined while it runs. */
  get reason(): unknown {
    return this.over?.reason;
  }

  /**
   * Core calls (logins, sessions, PoW, completions) and queue waits: aborted by the turn's end and by the start
   * deadline (whose clock stops while the turn waits in the queue, so a queue wait ends only with the turn).
   */
  get workSignal(): AbortSignal {
    return this.work.signal;
  }

  /**
   * Ends the turn (the client left, or its events were cancelled): the live attempt's events are cancelled and it
   * is settled, then the core work and the queue waits are aborted. Once.
   */
  end(reason: unknown): void {
    if (this.over) return;
    // As AbortController.abort does with no reason.
    const r = reason === undefined ? new DOMException("This operation was aborted", "AbortError") : reason;
    this.over = { reason: r };
    const c = this.current;
    if (c) {
      c.source.cancel(r).catch(() => {});
      c.settle();
    }
    this.work.abort(r);
  }

  /** The turn no longer listens to the client's signal (it is over, or about to be). */
  detach(): void {
    this.client.removeEventListener("abort", this);
  }
}
