// Feeds the raw bodies of completion and continue rounds into the capture store (D13.1, D13.2): bounded by
// max_body_bytes while streaming, with the full size counted. The runtime hands one chunk per read — one per
// token while core streams slowly — so every 64 of them are copied into one block: an open stream keeps about
// the bytes it read, not an object per token (issue 17). The round takes its place in the store when it starts
// and keeps its answer only while it holds that place (captures.ts, OpenCapture): no sink at all when captures
// are off, and none kept for a round that newer ones pushed out.
import type { CaptureStore, OpenCapture } from "./captures";
import type { RoundSink } from "../core/completion";
import { concatBytes } from "../util/bytes";
import { none, pushed } from "../util/none";

/**
 * The sink of one round of `chainKey`'s completion (core's round hook opens one per round, turn/attempt.ts);
 * undefined when captures are off for the chain.
 */
export function captureSink(store: CaptureStore, chainKey: string, account: string | null, round: RoundStart): RoundSink | undefined {
  const open = store.begin({ label: round.label, chain_key: chainKey, round: round.round, method: "POST", path: round.path, account_id: account ?? "", status_code: round.status }, round.requestBody);
  return open ? new CaptureSink(store, open, round.startedAt) : undefined;
}

type RoundStart = { label: "completion" | "continue"; round: number; path: string; requestBody: string; status: number; startedAt: number };

/**
 * One round's sink as a class, not closures (issue 35): an open stream keeps its sink, and `chunk`, `end` and
 * `settle` are shared methods instead of three functions and a scope per round.
 */
class CaptureSink implements RoundSink {
  private readonly max: number;
  // The shared empty lists until the round's first bytes, and again once it is dropped.
  private chunks: Uint8Array[] = none();
  private recent: Uint8Array[] = none();
  /** The round's place in the store; null once it was dropped (it is nobody's to keep any more). */
  private open: OpenCapture | null;
  private recentBytes = 0;
  private kept = 0;
  private total = 0;
  private done = false;

  constructor(
    private readonly store: CaptureStore,
    open: OpenCapture,
    private readonly startedAt: number,
  ) {
    this.max = store.settings.max_body_bytes;
    this.open = open;
    open.keeper = this;
  }

  /** The round was pushed out of the store (or the store cleared): what was kept goes, and nothing more is. */
  release(): void {
    this.open = null;
    this.chunks = none();
    this.recent = none();
    this.recentBytes = 0;
  }

  private settle(): void {
    if (this.recent.length === 0) return;
    this.chunks = pushed(this.chunks, concatBytes(this.recent, this.recentBytes));
    this.recent = none();
    this.recentBytes = 0;
  }

  chunk(bytes: Uint8Array): void {
    if (this.done) return;
    this.total += bytes.byteLength;
    if (!this.open || this.open.dropped || this.kept >= this.max) return;
    // A view only when the limit cuts the chunk: a view object per token was a measurable part of its cost.
    const room = this.max - this.kept + 4;
    const take = bytes.byteLength <= room ? bytes : bytes.subarray(0, room);
    this.recent = pushed(this.recent, take);
    this.recentBytes += take.byteLength;
    this.kept += take.byteLength;
    if (this.recent.length >= BLOCK_CHUNKS) this.settle();
  }

  end(): void {
    if (this.done) return;
    this.done = true;
    this.settle();
    if (this.open) this.store.finish(this.open, { duration_ms: Date.now() - this.startedAt, response_chunks: this.chunks, response_bytes: this.total });
  }
}

const BLOCK_CHUNKS = 64;
