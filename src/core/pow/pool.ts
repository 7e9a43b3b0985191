// A small pool of PoW worker threads (core-upstream §6.5). A solve never runs on the event loop; a
// cancelled request terminates its worker (the only way to stop a tight loop at once) and a fresh one
// takes its place when the next job arrives.
import { availableParallelism } from "node:os";
import { DEFAULT_DIFFICULTY, type PowChallenge } from "./challenge";

/** What the pool posts to a worker: only the fields the search reads. */
export interface PowJob {
  id: number;
  challenge: Pick<PowChallenge, "salt" | "expire_at" | "difficulty" | "challenge">;
}

export interface PowResult {
  id: number;
  answer: number | null;
  error?: string;
}

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
}

interface Slot {
  worker: Worker;
  job: Job | null;
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

  constructor(private readonly size: number = defaultPoolSize()) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`PoW pool size must be a positive integer, got ${size}`);
  }

  /** Resolves with the answer, or null when no n below the difficulty matches; rejects on abort or close. */
  solve(ch: PowChallenge, signal?: AbortSignal): Promise<number | null> {
    if (this.closed) return Promise.reject(new Error("PoW pool is closed"));
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, ch, resolve, reject, signal };
      if (signal) {
        job.onAbort = () => this.cancel(job);
        signal.addEventListener("abort", job.onAbort, { once: true });
      }
      this.queue.push(job);
      this.pump();
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
      if (s.job) this.settle(s.job).reject(new Error("PoW pool is closed"));
    }
    this.slots = [];
    for (const j of this.queue.splice(0)) this.settle(j).reject(new Error("PoW pool is closed"));
  }

  private spawn(): Slot {
    const worker = new Worker(workerEntry());
    const slot: Slot = { worker, job: null };
    worker.onmessage = (e: MessageEvent<PowResult>) => {
      const job = slot.job;
      if (!job || job.id !== e.data.id) return;
      this.release(slot);
      if (e.data.error !== undefined) this.settle(job).reject(new Error(`PoW search failed: ${e.data.error}`));
      else this.settle(job).resolve(e.data.answer);
    };
    worker.onerror = (e) => {
      const job = slot.job;
      this.discard(slot);
      if (job) this.settle(job).reject(new Error(`PoW worker failed: ${e.message}`));
    };
    return slot;
  }

  private pump(): void {
    while (this.queue.length && !this.closed) {
      let slot = this.slots.find((s) => !s.job);
      if (!slot) {
        if (this.slots.length >= this.size) return;
        slot = this.spawn();
        this.slots.push(slot);
      }
      const job = this.queue.shift()!;
      slot.job = job;
      // A busy worker keeps the process alive; an idle one must not (see release()).
      refWorker(slot.worker, true);
      const msg: PowJob = {
        id: job.id,
        challenge: { salt: job.ch.salt, expire_at: job.ch.expire_at, difficulty: job.ch.difficulty ?? DEFAULT_DIFFICULTY, challenge: job.ch.challenge },
      };
      slot.worker.postMessage(msg);
    }
  }

  private release(slot: Slot): void {
    slot.job = null;
    refWorker(slot.worker, false);
    this.pump();
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
      const slot = this.slots.find((s) => s.job === job);
      if (!slot) return; // already settled
      this.discard(slot);
    }
    job.reject(abortReason(job.signal));
  }

  /** Terminates a worker mid-search and lets the queue move on (a replacement is spawned on demand). */
  private discard(slot: Slot): void {
    slot.worker.terminate();
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    slot.job = null;
    this.pump();
  }
}
