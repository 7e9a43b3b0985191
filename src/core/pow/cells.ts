// The shared memory through which the pool hands jobs to a PoW worker and reads its answers (pool.ts, worker.ts).
// A message per hand-off cost the event loop a structured clone and a MessageEvent each way; the jobs and answers
// now sit in a SharedArrayBuffer and each side only bumps a counter and wakes the other (Atomics.notify, and
// Atomics.waitAsync on the event loop's side). docs/PERFORMANCE.md, "Bookkeeping made cheaper", has the figures.
//
// Job k (counted from 0 per worker) lives in cell k % DEPTH. The pool writes a cell, then stores POSTED = k + 1;
// the worker solves the jobs in order and stores DONE = k + 1 after writing job k's answer. The pool reuses a cell
// only after it has read that cell's answer, so the two never write the same cell at once.

/**
 * Jobs posted to one worker at a time: the one it runs and the ones it starts next. Small, because a posted job
 * is that worker's: an idle worker cannot take it over, so a larger depth balances a burst worse at core's
 * real difficulty (13–30 ms a search).
 */
export const DEPTH = 4;

/** Int32 indexes of the two counters, and of the worker's "asleep" flag. */
export const POSTED = 0;
export const DONE = 1;
/**
 * Non-zero while the worker sleeps (or is about to) in Atomics.wait on POSTED: the pool wakes it only then. Waking a
 * sleeping thread is most of a hand-off's cost on the event loop, and a busy worker reads POSTED again before it
 * sleeps (each side stores its word, then reads the other's: one of them sees the other's store).
 */
export const ASLEEP = 2;
const HEADER = 16;

/** Bytes of one cell; the prefix gets what the fixed fields leave (456 bytes: a salt of ≈ 440). */
export const CELL = 512;
/** Int32 at the cell's start: non-zero = dropped before it started (answer without searching). */
export const STATE = 0;
/** Int32: the prefix's length in bytes, or LONG_PREFIX when it did not fit and comes by message. */
export const PREFIX_LEN = 4;
/** Float64: the difficulty (the search's end, exclusive). */
export const DIFFICULTY = 8;
/** Float64: the answer; NO_ANSWER when no candidate matched (or the job was dropped), FAILED when the search threw. */
export const ANSWER = 16;
/** 32 bytes: the target digest. */
export const TARGET = 24;
/** salt_expireAt_ as UTF-8; on FAILED, the error's message. */
export const PREFIX = 56;
export const PREFIX_CAP = CELL - PREFIX;

export const LONG_PREFIX = -1;
export const NO_ANSWER = -1;
export const FAILED = -2;

export function cellsBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(HEADER + DEPTH * CELL);
}

export function cellOffset(cell: number): number {
  return HEADER + cell * CELL;
}

/** What a worker receives first. */
export interface PowWorkerInit {
  cells: SharedArrayBuffer;
}

/** A job whose prefix did not fit its cell: the prefix, by message, before the job is posted. */
export interface LongPrefix {
  job: number;
  prefix: Uint8Array;
}
