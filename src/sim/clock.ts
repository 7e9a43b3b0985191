// The simulator's clock (core-upstream §12.9). Virtual: a fixed epoch that moves a fixed step per event
// (so timestamps in streams are reproducible) and by `advance(ms)` (PoW and token expiry tests). Real:
// wall time, still shiftable by `advance` so expiry can be tested without waiting.

export const DEFAULT_EPOCH = 1775322810.101244;
/** Per-event step of the virtual clock, in seconds: small enough that a long stream stays within minutes. */
const VIRTUAL_STEP_S = 0.000731;

export class SimClock {
  private virtual: number;
  private offsetS = 0;

  constructor(
    public mode: "real" | "virtual",
    private readonly epoch = DEFAULT_EPOCH,
  ) {
    this.virtual = epoch;
  }

  /** Current time in float seconds, without moving the virtual clock. */
  peek(): number {
    return this.mode === "virtual" ? this.virtual : Date.now() / 1000 + this.offsetS;
  }

  /** Time of a new event: the virtual clock steps forward first. */
  tick(): number {
    if (this.mode === "virtual") this.virtual = round6(this.virtual + VIRTUAL_STEP_S);
    return this.peek();
  }

  nowMs(): number {
    return this.peek() * 1000;
  }

  advance(ms: number): void {
    if (this.mode === "virtual") this.virtual = round6(this.virtual + ms / 1000);
    else this.offsetS += ms / 1000;
  }

  reset(): void {
    this.virtual = this.epoch;
    this.offsetS = 0;
  }
}

/** Microsecond precision, like core's float timestamps, and free of accumulated binary noise. */
function round6(s: number): number {
  return Math.round(s * 1e6) / 1e6;
}
