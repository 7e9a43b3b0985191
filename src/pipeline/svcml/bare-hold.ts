// The bare-invoke hold's state (svcml-and-prompts.md §1.8): where a held region starts, where its last finished
// invoke ended while what follows it is awaited, the finished calls waiting for a closing wrapper, and the hold
// limit. Its positions are cursors of the scan buffer, so dropping consumed text never moves them by hand. What
// the detector does with a held region (confirm it, release it as text) is detector-bare.ts.
import { BARE_INVOKE_HOLD_MAX_CHARS } from "./constants";
import type { Invoke } from "./call-builder";
import type { Cursor, ScanBuffer } from "./scan-buffer";

export class BareHold {
  /** Where the held region starts (cleared: nothing held). */
  readonly start: Cursor;
  /** Where a finished bare invoke ended while what follows it is awaited (cleared: none). */
  readonly pendingEnd: Cursor;
  /** Finished calls that a closing wrapper would confirm. */
  calls: Invoke[] = [];

  constructor(buffer: ScanBuffer) {
    this.start = buffer.cursor();
    this.pendingEnd = buffer.cursor();
  }

  get held(): boolean {
    return this.start.at >= 0;
  }

  get pending(): boolean {
    return this.pendingEnd.at >= 0;
  }

  // The hold limit releases the region at one fixed point, start + limit + 1, as soon as anything past it has
  // been read, and before acting on it: so the text that comes out does not depend on where the pushes happened
  // to end, and a bare invoke never holds more than the limit.
  overLimit(at: number): boolean {
    return this.held && at - this.start.at > BARE_INVOKE_HOLD_MAX_CHARS;
  }

  get limitPoint(): number {
    return this.start.at + BARE_INVOKE_HOLD_MAX_CHARS + 1;
  }

  /** Nothing is held any more; returns the calls that were waiting. */
  end(): Invoke[] {
    const calls = this.calls;
    this.calls = [];
    this.start.clear();
    this.pendingEnd.clear();
    return calls;
  }
}
