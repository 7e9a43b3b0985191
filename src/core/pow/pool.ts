// A small pool of PoW worker threads (core-upstream §6.5). A solve never runs on the event loop; a
// cancelled request terminates its worker (the only way to stop a tight loop at once) and a fresh one
// takes its place when the next job arrives.
//
// Jobs are posted once per event-loop turn, and each worker holds up to DEPTH of them: under load it starts the
// next search as soon as it has written an answer, instead of sleeping until the event loop has read that answer
// and sent another job. A job and its answer go through shared memory (cells.ts): the pool writes the job's
// cell and wakes the worker with Atomics.notify if it sleeps; the worker writes the answer and wakes the event loop's
// Atomics.waitAsync. A message each way (a structured clone and a MessageEvent) was the larger part of the
// hand-off's cost on the event loop (docs/PERFORMANCE.md, PoW and "Bookkeeping made cheaper").
import { availableCpus } from "../../util/host";
import { DEFAULT_DIFFICULTY, type PowChallenge } from "./challenge";
import { ANSWER, ASLEEP, cellOffset, cellsBuffer, DEPTH, DIFFICULTY, DONE, FAILED, LONG_PREFIX, NO_ANSWER, POSTED, PREFIX, PREFIX_CAP, PREFIX_LEN, STATE, TARGET, type LongPrefix, type PowWorkerInit } from "./cells";

/** Jobs posted to one worker at a time (cells.ts). */
export const PIPELINE_DEPTH = DEPTH;

/** One worker per spare core, at least 1, at most 4 (the `upstream.pow_workers` default). */
export function defaultPoolSize(cpus: number = availableCpus()): number {
  return Math.min(4, Math.max(1, cpus - 1));
}

interface Job {
  id: number;
  ch: PowChallenge;
  resolve(answer: number | null): void;
  reject(err: unknown): void;
  signal?: AbortSignal;
  onAbort?: () => void;
  /** Its cell in the worker's shared memory while posted; -1 before. */
  cell: number;
  /** Settled already (aborted while posted): its answer, when it comes, is thrown away. */
  dropped: boolean;
}

interface Slot {
  worker: Worker;
  /** Posted to this worker, in the order it runs them: the first is running (or about to). */
  jobs: Job[];
  i32: Int32Array;
  f64: Float64Array;
  u8: Uint8Array;
  /** Each cell's prefix area, for encodeInto. */
  prefixes: Uint8Array[];
  /** Jobs posted to this worker so far (the POSTED counter's value) and answers read (the next cell to read). */
  posted: number;
  read: number;
  /** An Atomics.waitAsync for the DONE counter is pending. */
  watching: boolean;
  /** Terminated: a wake-up that arrives late finds nothing to do. */
  gone: boolean;
}

/**
 * Where the worker's code is. From source it sits next to this file. Inside a `bun build --compile` binary
 * the worker must be an extra entrypoint of the build (build.ts lists src/core/pow/worker.ts) and is
 * addressed by its path relative to the entrypoints' common root (src/).
 */
function workerEntry(): string | URL {
  return import.meta.url.includes("$bunfs") ? "./core/pow/worker.ts" : new URL("./worker.ts", import.meta.url);
}

// Bun's Worker has ref()/unref() (as in Node); the DOM Worker type in scope does not declare them.
function refWorker(w: Worker, keepAlive: boolean): void {
  const bw = w as unknown as { ref?: () => void; unref?: () => void };
  if (keepAlive) bw.ref?.();
  else bw.unref?.();
}

function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException("The PoW search was aborted", "AbortError");
}

const HEX64 = /^[0-9a-fA-F]{64}$/;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** A hex digit's value (checked by HEX64 first): 0–9, then a–f and A–F alike. */
const nibble = (c: number) => (c <= 57 ? c - 48 : (c | 32) - 87);

export class PowPool {
  private slots: Slot[] = [];
  private queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  private pumpScheduled = false;

  constructor(private readonly size: number = defaultPoolSize()) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`PoW pool size must be a positive integer, got ${size}`);
  }

  /** Resolves with the answer, or null when no n below the difficulty matches; rejects on abort or close. */
  solve(ch: PowChallenge, signal?: AbortSignal): Promise<number | null> {
    if (this.closed) return Promise.reject(new Error("PoW pool is closed"));
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, ch, resolve, reject, signal, cell: -1, dropped: false };
      if (signal) {
        job.onAbort = () => this.cancel(job);
        signal.addEventListener("abort", job.onAbort, { once: true });
      }
      this.queue.push(job);
      // A worker exists as soon as a job does (its start-up overlaps the wait for the turn to end).
      if (this.slots.length === 0) this.slots.push(this.spawn());
      this.schedulePump();
    });
  }

  /** Workers currently alive (a test hook: a cancelled search's worker is gone). */
  get workers(): number {
    return this.slots.length;
  }

  close(): void {
    this.closed = true;
    for (const s of this.slots) {
      this.terminate(s);
      for (const j of s.jobs) if (!j.dropped) this.settle(j).reject(new Error("PoW pool is closed"));
      s.jobs = [];
    }
    this.slots = [];
    for (const j of this.queue.splice(0)) this.settle(j).reject(new Error("PoW pool is closed"));
  }

  private spawn(): Slot {
    const worker = new Worker(workerEntry());
    const cells = cellsBuffer();
    const u8 = new Uint8Array(cells);
    const prefixes = Array.from({ length: DEPTH }, (_, c) => u8.subarray(cellOffset(c) + PREFIX, cellOffset(c) + PREFIX + PREFIX_CAP));
    const slot: Slot = { worker, jobs: [], i32: new Int32Array(cells), f64: new Float64Array(cells), u8, prefixes, posted: 0, read: 0, watching: false, gone: false };
    worker.postMessage({ cells } satisfies PowWorkerInit);
    worker.onerror = (e) => {
      // The running job failed with the worker; the ones waiting behind it go back to the queue. Answers the worker
      // wrote before it failed are read first.
      if (slot.gone) return;
      this.drain(slot);
      const [failed, ...waiting] = slot.jobs;
      this.discard(slot, waiting);
      if (failed && !failed.dropped) this.settle(failed).reject(new Error(`PoW worker failed: ${e.message}`));
    };
    return slot;
  }

  /** The slot with the fewest posted jobs below the depth, spawning one while the pool is below its size. */
  private freeSlot(): Slot | undefined {
    let best: Slot | undefined;
    for (const s of this.slots) if (s.jobs.length < DEPTH && (!best || s.jobs.length < best.jobs.length)) best = s;
    if (best && best.jobs.length === 0) return best;
    if (this.slots.length < this.size) {
      const fresh = this.spawn();
      this.slots.push(fresh);
      return fresh;
    }
    return best;
  }

  /** Posts at the end of this event-loop turn, so the jobs that arrive during the turn share one wake-up. */
  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    let woken: Slot[] | null = null;
    while (this.queue.length && !this.closed) {
      const slot = this.freeSlot();
      if (!slot) break;
      const job = this.queue.shift()!;
      if (!HEX64.test(job.ch.challenge)) {
        // What the search itself throws for it (solve.ts); parseChallenge refuses such a challenge long before.
        this.settle(job).reject(new Error("PoW search failed: challenge must be 64 hex characters"));
        continue;
      }
      this.write(slot, job);
      if (!woken) woken = [slot];
      else if (!woken.includes(slot)) woken.push(slot);
    }
    if (!woken) return;
    for (const slot of woken) {
      // A busy worker keeps the process alive; an idle one must not (see release()).
      refWorker(slot.worker, true);
      Atomics.store(slot.i32, POSTED, slot.posted);
      // A worker still busy with earlier jobs reads POSTED before it sleeps: only a sleeping one is woken.
      if (Atomics.load(slot.i32, ASLEEP) !== 0) Atomics.notify(slot.i32, POSTED);
      this.watch(slot);
    }
  }

  /** The job into its cell (job number `posted`, cell posted % DEPTH: read by then, see cells.ts). */
  private write(slot: Slot, job: Job): void {
    const n = slot.posted++;
    const cell = n % DEPTH;
    const off = cellOffset(cell);
    job.cell = cell;
    slot.jobs.push(job);
    const { i32, f64, u8 } = slot;
    Atomics.store(i32, (off + STATE) >> 2, 0);
    f64[(off + DIFFICULTY) >> 3] = job.ch.difficulty ?? DEFAULT_DIFFICULTY;
    const hex = job.ch.challenge;
    for (let i = 0; i < 32; i++) u8[off + TARGET + i] = (nibble(hex.charCodeAt(2 * i)) << 4) | nibble(hex.charCodeAt(2 * i + 1));
    const prefix = `${job.ch.salt}_${job.ch.expire_at}_`;
    const { read, written } = encoder.encodeInto(prefix, slot.prefixes[cell]!);
    if (read === prefix.length) i32[(off + PREFIX_LEN) >> 2] = written;
    else {
      // A salt longer than the cell holds (core sends 16 hex characters): the prefix goes by message.
      i32[(off + PREFIX_LEN) >> 2] = LONG_PREFIX;
      slot.worker.postMessage({ job: n, prefix: encoder.encode(prefix) } satisfies LongPrefix);
    }
  }

  /** Waits (off the event loop's time) for the worker's next answer, once per slot. */
  private watch(slot: Slot): void {
    if (slot.watching || slot.gone) return;
    slot.watching = true;
    const w = Atomics.waitAsync(slot.i32, DONE, slot.read);
    if (w.async) void w.value.then(() => this.collect(slot));
    else queueMicrotask(() => this.collect(slot)); // answered already
  }

  /** The pending wait ended: reads the answers and waits for the next one. */
  private collect(slot: Slot): void {
    slot.watching = false;
    if (slot.gone) return;
    this.drain(slot);
    if (slot.jobs.length) this.watch(slot);
  }

  /** Reads the answers written since the last read and settles their jobs. */
  private drain(slot: Slot): void {
    const done = Atomics.load(slot.i32, DONE);
    while (slot.read < done) {
      const off = cellOffset(slot.read % DEPTH);
      slot.read++;
      const job = slot.jobs.shift();
      if (!job || job.dropped) continue;
      const answer = slot.f64[(off + ANSWER) >> 3]!;
      if (answer === FAILED) {
        const len = slot.i32[(off + PREFIX_LEN) >> 2]!;
        this.settle(job).reject(new Error(`PoW search failed: ${decoder.decode(slot.u8.slice(off + PREFIX, off + PREFIX + len))}`));
      } else this.settle(job).resolve(answer === NO_ANSWER ? null : answer);
    }
    this.release(slot);
  }

  private release(slot: Slot): void {
    if (slot.jobs.length === 0) refWorker(slot.worker, false);
    if (this.queue.length) this.schedulePump();
  }

  /** Detaches a job from its abort signal before it settles. */
  private settle(job: Job): Job {
    if (job.onAbort) job.signal?.removeEventListener("abort", job.onAbort);
    return job;
  }

  private cancel(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) this.queue.splice(queued, 1);
    else {
      const slot = this.slots.find((s) => s.jobs.includes(job));
      if (!slot || job.dropped) return; // already settled
      if (slot.jobs[0] === job) {
        // Running: stop the search at once; the jobs posted behind it go back to the queue.
        this.discard(slot, slot.jobs.slice(1));
      } else {
        // Posted but not started: the worker reads the flag before it starts and answers at once.
        job.dropped = true;
        Atomics.store(slot.i32, (cellOffset(job.cell) + STATE) >> 2, 1);
      }
    }
    job.reject(abortReason(job.signal));
  }

  /** Ends a worker; a pending wait for its answers is released and then finds the slot gone. */
  private terminate(slot: Slot): void {
    slot.gone = true;
    slot.worker.terminate();
    Atomics.notify(slot.i32, DONE);
  }

  /** Terminates a worker mid-search; `requeue` goes back to the front of the queue for the next worker. */
  private discard(slot: Slot, requeue: Job[]): void {
    this.terminate(slot);
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    slot.jobs = [];
    this.queue.unshift(...requeue.filter((j) => !j.dropped));
    if (this.queue.length) this.schedulePump();
  }
}
