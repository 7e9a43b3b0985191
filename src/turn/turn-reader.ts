// The turn's events, read from the live attempt a batch at a time (the runner's TurnEventSource). It owns how a
// turn ends: its last event (finish or error) settles the lease at once; until core's first token the start
// deadline may end the read, reported in the stream (D4.5, D9.8); an empty output nothing was shown of is
// swapped for one retry (D9.6, decided by empty-output-retry.ts). Never gives an empty batch.
import type { TurnEvent } from "../pipeline/types";
import { emptyOutputError, type EmptyOutputRetry } from "./empty-output-retry";
import type { LiveAttempt } from "./live-attempt";
import { startTimeoutMessage } from "./start-deadline";
import type { TurnLife } from "./turn-life";
import type { TurnEventSource } from "./types";

export interface TurnReaderParts {
  life: TurnLife;
  retry: EmptyOutputRetry;
  /** Starts the retry's attempt (account failover included); rejects when none could start. */
  restart(): Promise<LiveAttempt>;
  /** Told of each empty-output retry (the request log). */
  onRetry?: () => void;
}

export class TurnReader implements TurnEventSource {
  private over = false;
  /** Core's first token arrived (isFirstToken): the start deadline no longer applies. */
  private started = false;

  constructor(private readonly parts: TurnReaderParts) {}

  /** The turn's next events (never an empty batch), or null once it has ended. */
  async next(): Promise<TurnEvent[] | null> {
    if (this.over) return null;
    const { life, retry } = this.parts;
    for (;;) {
      const c = life.current!;
      let batch: TurnEvent[] | null;
      try {
        // Until core's first event the start deadline may end the wait (a read of a core that accepted the
        // completion and then says nothing would otherwise last until the 300 s silence limit).
        const read = c.source.next();
        // A read the deadline overtook is cancelled below; its late rejection is nobody's error.
        if (!this.started) read.catch(() => {});
        batch = await (this.started ? read : Promise.race([read, life.expiry]));
      } catch (e) {
        if (!life.deadline.expired || this.started) return this.end(e);
        batch = null;
      }
      if (life.deadline.expired && !this.started && !life.ended) {
        // The stream has begun (HTTP 200 is out): the deadline is reported in it (D4.5), and core's request is
        // already aborted.
        await c.source.cancel(life.workSignal.reason).catch(() => {});
        this.close();
        return retry.withCarried([{ type: "error", status: 503, code: "upstream_timeout", message: startTimeoutMessage }]);
      }
      if (batch !== null && !this.started && batch.some(isFirstToken)) {
        this.started = true;
        life.answerStarted();
      }
      if (batch === null || life.ended) return this.end();
      const verdict = retry.scan(batch, c.started.account);
      if (verdict.retry) {
        // D9.6: nothing reached the client yet, so one retry is invisible to it. The empty attempt is ended
        // first: its slot must not wait for a stream nobody reads any more.
        retry.retrying(verdict.events);
        this.parts.onRetry?.();
        await c.source.cancel("empty output: retried").catch(() => {});
        c.settle();
        try {
          life.current = await this.parts.restart();
        } catch {
          if (life.ended) return this.end();
          // The retry failed too: the answer stays what the first attempt was, an empty output (D9.6), whatever
          // stopped the retry (a queue wait, a login) — never a 429 inside a started stream.
          this.close();
          return retry.withCarried([emptyOutputError]);
        }
        if (life.ended) return this.end();
        continue;
      }
      // A finish or an error is the last event of an answer (core's body has ended by then): the lease is
      // settled now, not when a reader asks once more — a reader that stops at the last event (a non-stream
      // collector) would otherwise hold the slot for good.
      if (verdict.terminal) this.close();
      const out = retry.withCarried(verdict.events);
      if (out.length > 0) return out;
    }
  }

  async cancel(reason?: unknown): Promise<void> {
    // A turn that is over has nothing left to stop (as a closed stream ignores a cancel).
    if (this.over) return;
    this.parts.life.end(reason ?? new DOMException("stream cancelled", "AbortError"));
    this.parts.life.detach();
  }

  /** Settles the live attempt once the turn is over, however it ended. */
  private close(): void {
    const { life } = this.parts;
    this.over = true;
    life.deadline.disarm();
    life.current?.settle();
    life.detach();
  }

  /** Ends the turn: an abort is an error for whoever still reads, never a silent end of the answer. */
  private end(error?: unknown): null {
    this.close();
    if (this.parts.life.ended) throw this.parts.life.reason;
    if (error !== undefined) throw error;
    return null;
  }
}

/** Core's first token ends the start deadline (D9.8); its keep-alives and empty deltas do not. */
export function isFirstToken(e: TurnEvent): boolean {
  if (e.type === "keepalive") return false;
  if (e.type === "thinking" || e.type === "text") return e.text !== "";
  return true;
}
