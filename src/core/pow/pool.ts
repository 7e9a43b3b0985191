// A small pool of PoW worker threads (core-upstream §6.5). A solve never runs on the event loop; a
// cancelled request terminates its worker (the only way to stop a tight loop at once) and a fresh one
// takes its place when the next job arrives.
//
// Jobs are posted once per event-loop turn, every job that arrived in the turn in one message, and each
// worker holds up to PIPELINE_DEPTH of them: under load it starts the next search as soon as it posts an
// answer, instead of sleeping until the event loop has read that answer and sent another job. A message
// and a thread woken per job were ≈ 15 % of a chat request's CPU (docs/PERFORMANCE.md, PoW); at 64
// connections a message now carries ≈ 4 jobs.
import { availableParallelism } from "node:os";
import { DEFAULT_DIFFICULTY, type PowChallenge } from "./challenge";

/** One job as the pool posts it to a worker (in an array: the jobs of one turn): the fields the search reads. */
export interface PowJob {
  id: number;
  /** The job's cell in the worker's shared `dropped` flags: non-zero means "answer without searching". */
  cell: number;
  challenge: Pick<PowChallenge, "salt" | "expire_at" | "difficulty" | "challenge">;
}

export interface PowResult {
  id: number;
  answer: number | null;
  error?: string;
}

/** What a worker receives first: the flags through which the pool drops jobs it has already posted. */
export interface PowWorkerInit {
  dropped: SharedArrayBuffer;
}

/**
 * Jobs posted to one worker at a time: the one it runs and the ones it starts next. Small, because a posted job
 * is that worker's: an idle worker cannot take it over, so a larger depth balances a burst worse at core's
 * real difficulty (13–30 ms a search).
 */
export const PIPELINE_DEPTH = 4;

/** One worker per spare core, at least 1, at most 4 (the `upstream.pow_workers` default). */
export function defaultPoolSize(cpus: number = availableParallelism()): number {
  return Math.min(4, Math.max(1, cpus - 1));
}

interface Job {
  id: number;
  ch: PowChallenge;
  resolve(answer: number | null): void;
  reject(err: unknown): void;
  signal?: AbortSignal;
  onAbort?: () => void;
  /** Its cell in the worker's flags while posted; -1 before. */
  cell: number;
  /** Settled already (aborted while posted): its answer, when it comes, is thrown away. */
  dropped: boolean;
}

interface Slot {
  worker: Worker;
  /** Posted to this worker, in the order it runs them: the first is running (or about to). */
  jobs: Job[];
  /** One Int32 per cell: set when a posted job is aborted before the worker starts it. */
  dropped: Int32Array;
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
      s.worker.terminate();
      for (const j of s.jobs) if (!j.dropped) this.settle(j).reject(new Error("PoW pool is closed"));
    }
    this.slots = [];
    for (const j of this.queue.splice(0)) this.settle(j).reject(new Error("PoW pool is closed"));
  }

  private spawn(): Slot {
    const worker = new Worker(workerEntry());
    const shared = new SharedArrayBuffer(PIPELINE_DEPTH * Int32Array.BYTES_PER_ELEMENT);
    const slot: Slot = { worker, jobs: [], dropped: new Int32Array(shared) };
    worker.postMessage({ dropped: shared } satisfies PowWorkerInit);
    worker.onmessage = (e: MessageEvent<PowResult>) => {
      // The worker answers in the order it was given its jobs.
      const job = slot.jobs[0];
      if (!job || job.id !== e.data.id) return;
      slot.jobs.shift();
      this.release(slot);
      if (job.dropped) return;
      if (e.data.error !== undefined) this.settle(job).reject(new Error(`PoW search failed: ${e.data.error}`));
      else this.settle(job).resolve(e.data.answer);
    };
    worker.onerror = (e) => {
      // The running job failed with the worker; the ones waiting behind it go back to the queue.
      const [failed, ...waiting] = slot.jobs;
      this.discard(slot, waiting);
      if (failed && !failed.dropped) this.settle(failed).reject(new Error(`PoW worker failed: ${e.message}`));
    };
    return slot;
  }

  /** The slot with the fewest posted jobs below the depth, spawning one while the pool is below its size. */
  private freeSlot(): Slot | undefined {
    let best: Slot | undefined;
    for (const s of this.slots) if (s.jobs.length < PIPELINE_DEPTH && (!best || s.jobs.length < best.jobs.length)) best = s;
    if (best && best.jobs.length === 0) return best;
    if (this.slots.length < this.size) {
      const fresh = this.spawn();
      this.slots.push(fresh);
      return fresh;
    }
    return best;
  }

  /** Posts at the end of this event-loop turn, so the jobs that arrive during the turn share one message. */
  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    const batches = new Map<Slot, PowJob[]>();
    while (this.queue.length && !this.closed) {
      const slot = this.freeSlot();
      if (!slot) break;
      const job = this.queue.shift()!;
      job.cell = this.freeCell(slot);
      Atomics.store(slot.dropped, job.cell, 0);
      slot.jobs.push(job);
      const msg: PowJob = {
        id: job.id,
        cell: job.cell,
        challenge: { salt: job.ch.salt, expire_at: job.ch.expire_at, difficulty: job.ch.difficulty ?? DEFAULT_DIFFICULTY, challenge: job.ch.challenge },
      };
      const batch = batches.get(slot);
      if (batch) batch.push(msg);
      else batches.set(slot, [msg]);
    }
    for (const [slot, batch] of batches) {
      // A busy worker keeps the process alive; an idle one must not (see release()).
      refWorker(slot.worker, true);
      slot.worker.postMessage(batch);
    }
  }

  /** A cell no job posted to this slot holds. */
  private freeCell(slot: Slot): number {
    for (let c = 0; c < PIPELINE_DEPTH; c++) if (!slot.jobs.some((j) => j.cell === c)) return c;
    throw new Error("PoW pool: no free cell (more jobs posted than the depth)");
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
        Atomics.store(slot.dropped, job.cell, 1);
      }
    }
    job.reject(abortReason(job.signal));
  }

  /** Terminates a worker mid-search; `requeue` goes back to the front of the queue for the next worker. */
  private discard(slot: Slot, requeue: Job[]): void {
    slot.worker.terminate();
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    slot.jobs = [];
    this.queue.unshift(...requeue.filter((j) => !j.dropped));
    if (this.queue.length) this.schedulePump();
  }
}
