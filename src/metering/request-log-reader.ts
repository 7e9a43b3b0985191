// Where the request log's admin reads run (issue 31): for a file, in one worker thread with its own read-only
// connection (WAL lets it read while the event loop writes), so a second-long scan never stalls requests; for
// an in-memory log (the demo, a data directory that cannot hold the file), on the event loop — the worker
// cannot see that database, and it stays small.
import type { Database } from "bun:sqlite";
import { READS, type ReadOp } from "./request-log-read";

type Pending = { resolve: (v: unknown) => void; reject: (e: unknown) => void };

/** Inside a compiled binary the worker is an extra entrypoint (scripts/compile.ts), addressed from src/. */
function workerEntry(): string | URL {
  return import.meta.url.includes("$bunfs") ? "./metering/request-log-worker.ts" : new URL("./request-log-worker.ts", import.meta.url);
}

export class RequestLogReader {
  private worker: Worker | null = null;
  private next = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(
    private readonly db: Database,
    /** The file, or ":memory:". */
    private readonly location: string,
  ) {}

  /** Copies the file's WAL into it on the reader thread (request-log-worker.ts); a no-op for an in-memory log. */
  checkpoint(): Promise<unknown> {
    return this.location === ":memory:" ? Promise.resolve(null) : this.run("checkpoint" as ReadOp);
  }

  run<T>(op: ReadOp, ...args: unknown[]): Promise<T> {
    if (this.location === ":memory:") {
      try {
        return Promise.resolve((READS[op] as (db: Database, ...a: unknown[]) => T)(this.db, ...args));
      } catch (e) {
        return Promise.reject(e);
      }
    }
    const w = this.ensure();
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      // Held only while a read is outstanding: an idle reader never keeps the process alive.
      (w as Worker & { ref?: () => void }).ref?.();
      w.postMessage({ id, path: this.location, op, args });
    });
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(workerEntry());
    w.onmessage = (e: MessageEvent<{ id: number; ok: boolean; value?: unknown; error?: string }>) => {
      const p = this.pending.get(e.data.id);
      if (!p) return;
      this.pending.delete(e.data.id);
      if (this.pending.size === 0) (w as Worker & { unref?: () => void }).unref?.();
      if (e.data.ok) p.resolve(e.data.value);
      else p.reject(new Error(e.data.error));
    };
    w.onerror = (e) => {
      for (const p of this.pending.values()) p.reject(new Error(`request log reader failed: ${e.message}`));
      this.pending.clear();
      this.worker = null;
    };
    (w as Worker & { unref?: () => void }).unref?.();
    this.worker = w;
    return w;
  }

  close(): void {
    this.worker?.terminate();
    this.worker = null;
    for (const p of this.pending.values()) p.reject(new Error("request log closed"));
    this.pending.clear();
  }
}
