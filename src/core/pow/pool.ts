// A small pool of PoW worker threads. A solve never runs on the event loop; a cancelled request terminates
// its worker (the only way to stop a tight loop at once) and a fresh one takes its place.
import { DEFAULT_DIFFICULTY, type PowChallenge } from "./challenge";

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
 * Inside the compiled binary the worker is an extra entrypoint addressed relative to src/ (build.ts lists it);
 * from source it sits next to this file.
 */
function workerEntry(): string | URL {
  return import.meta.url.includes("$bunfs") ? "./core/pow/worker.ts" : new URL("./worker.ts", import.meta.url);
}

export class PowPool {
  private slots: Slot[] = [];
  private queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly size: number) {}

  private spawn(): Slot {
    const worker = new Worker(workerEntry());
    // Idle workers must not keep the process alive.
    (worker as unknown as { unref?: () => void }).unref?.();
    const slot: Slot = { worker, job: null };
    worker.onmessage = (e: MessageEvent<{ id: number; answer: number | null }>) => {
      const job = slot.job;
      if (!job || job.id !== e.data.id) return;
      this.finish(slot, job);
      job.resolve(e.data.answer);
    };
    worker.onerror = (e) => {
      const job = slot.job;
      this.replace(slot);
      job?.reject(new Error(`PoW worker failed: ${e.message}`));
    };
    return slot;
  }

  solve(ch: PowChallenge, signal?: AbortSignal): Promise<number | null> {
    if (this.closed) return Promise.reject(new Error("PoW pool is closed"));
    if (signal?.aborted) return Promise.reject(signal.reason ?? new Error("aborted"));
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

  private pump(): void {
    while (this.queue.length) {
      let slot = this.slots.find((s) => !s.job);
      if (!slot) {
        if (this.slots.length >= this.size) return;
        slot = this.spawn();
        this.slots.push(slot);
      }
      const job = this.queue.shift()!;
      slot.job = job;
      (slot.worker as unknown as { ref?: () => void }).ref?.();
      slot.worker.postMessage({
        id: job.id,
        salt: job.ch.salt,
        expireAt: job.ch.expire_at,
        difficulty: job.ch.difficulty ?? DEFAULT_DIFFICULTY,
        target: job.ch.challenge.toLowerCase(),
      });
    }
  }

  private finish(slot: Slot, job: Job): void {
    if (job.onAbort) job.signal?.removeEventListener("abort", job.onAbort);
    slot.job = null;
    (slot.worker as unknown as { unref?: () => void }).unref?.();
    this.pump();
  }

  private cancel(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) this.queue.splice(queued, 1);
    else {
      const slot = this.slots.find((s) => s.job === job);
      if (slot) this.replace(slot);
    }
    job.reject(job.signal?.reason ?? new Error("aborted"));
  }

  private replace(slot: Slot): void {
    slot.worker.terminate();
    this.slots.splice(this.slots.indexOf(slot), 1);
    this.pump();
  }

  close(): void {
    this.closed = true;
    for (const s of this.slots) s.worker.terminate();
    this.slots = [];
    for (const j of this.queue.splice(0)) j.reject(new Error("PoW pool is closed"));
  }
}
