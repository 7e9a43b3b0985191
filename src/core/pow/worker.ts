// A PoW worker thread: solves the jobs the pool writes into shared memory (cells.ts), in order, off the event loop
// (core-upstream §6.5), and answers each as soon as it is solved. Between jobs it sleeps in Atomics.wait, so the
// pool wakes it with Atomics.notify instead of a message. A running search is cancelled by the pool terminating
// this thread. A job the pool posted but dropped before it started (its client left while it waited behind
// another) is flagged in its cell, and answered without a search.
import { searchPrefix } from "./solve";
import { ANSWER, ASLEEP, cellOffset, DEPTH, DIFFICULTY, DONE, FAILED, LONG_PREFIX, NO_ANSWER, POSTED, PREFIX, PREFIX_CAP, PREFIX_LEN, STATE, TARGET, type LongPrefix, type PowWorkerInit } from "./cells";

declare const self: Worker;

let i32: Int32Array;
let f64: Float64Array;
let u8: Uint8Array;
const longPrefixes = new Map<number, Uint8Array>();
let prefixArrived: (() => void) | null = null;
const encoder = new TextEncoder();

self.onmessage = (event: MessageEvent<PowWorkerInit | LongPrefix>) => {
  const data = event.data;
  if ("cells" in data) {
    i32 = new Int32Array(data.cells);
    f64 = new Float64Array(data.cells);
    u8 = new Uint8Array(data.cells);
    void serve();
    return;
  }
  longPrefixes.set(data.job, data.prefix);
  prefixArrived?.();
};

async function serve(): Promise<void> {
  for (let job = 0; ; job++) {
    while (Atomics.load(i32, POSTED) <= job) {
      Atomics.store(i32, ASLEEP, 1);
      // Returns at once if the pool posted since the load above (POSTED is no longer `job`). No timeout: an idle worker
      // costs nothing, and terminate() ends a thread sleeping here (measured under Bun 1.4.5: closed within ≈ 8 ms).
      Atomics.wait(i32, POSTED, job);
      Atomics.store(i32, ASLEEP, 0);
    }
    const off = cellOffset(job % DEPTH);
    f64[(off + ANSWER) >> 3] = await run(job, off);
    // The answer is written before DONE is stored (an Atomics store orders the writes before it).
    Atomics.store(i32, DONE, job + 1);
    Atomics.notify(i32, DONE);
  }
}

async function run(job: number, off: number): Promise<number> {
  if (Atomics.load(i32, (off + STATE) >> 2) !== 0) return NO_ANSWER;
  try {
    const len = i32[(off + PREFIX_LEN) >> 2]!;
    const prefix = len === LONG_PREFIX ? await longPrefix(job) : u8.slice(off + PREFIX, off + PREFIX + len);
    return searchPrefix(prefix, u8.slice(off + TARGET, off + TARGET + 32), 0, f64[(off + DIFFICULTY) >> 3]!) ?? NO_ANSWER;
  } catch (e) {
    const { written } = encoder.encodeInto(e instanceof Error ? e.message : String(e), u8.subarray(off + PREFIX, off + PREFIX + PREFIX_CAP));
    i32[(off + PREFIX_LEN) >> 2] = written;
    return FAILED;
  }
}

/** A prefix too long for its cell: posted before its job, but a message may arrive after the counter moved. */
async function longPrefix(job: number): Promise<Uint8Array> {
  for (;;) {
    const prefix = longPrefixes.get(job);
    if (prefix) {
      longPrefixes.delete(job);
      return prefix;
    }
    await new Promise<void>((resolve) => (prefixArrived = resolve));
    prefixArrived = null;
  }
}
