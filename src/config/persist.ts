// Atomic, serialised file writes (D2.3, D2.4). A crash leaves the old file or the new one, never a mix:
// the data goes to a temp file in the same directory (same filesystem, so rename is atomic), is fsynced,
// renamed over the target, and the directory is fsynced so the rename itself survives a power cut.
import { readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { randomHex } from "../util/random";
import { fsp } from "../util/fs-promises";

export interface WriteResult {
  writable: boolean;
  /** Names the path and the OS error code when the write failed. */
  warning?: string;
}

export interface AtomicWriteOptions {
  /** File mode of the new file; secrets live in these files, so owner-only by default. */
  mode?: number;
  /** Mode for a missing parent directory (created recursively). */
  dirMode?: number;
  /** Test seam: runs after the temp file is durable and before the rename (simulates a crash there). */
  beforeRename?: (tempPath: string) => void | Promise<void>;
}

/** `<dir>/.<name>.tmp-<pid>-<8 hex>`: hidden, and unique per process and write. */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.tmp-${process.pid}-${randomHex(8)}`);
}

/** Writes `data` to `path` atomically. Throws the OS error (with `code`) on failure; never leaves a temp file behind then. */
export async function atomicWriteFile(path: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): Promise<void> {
  const dir = dirname(path);
  const { mkdir, open, rename, unlink } = await fsp();
  await mkdir(dir, { recursive: true, mode: opts.dirMode ?? 0o700 });
  const temp = tempPathFor(path);
  let created = false;
  try {
    const fh = await open(temp, "wx", opts.mode ?? 0o600);
    created = true;
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    if (opts.beforeRename) await opts.beforeRename(temp);
    await rename(temp, path);
    created = false;
  } catch (e) {
    if (created) await unlink(temp).catch(() => {});
    throw e;
  }
  await syncDirectory(dir);
}

// Some filesystems refuse fsync on a directory; the rename has happened by then, so that is not a failure.
async function syncDirectory(dir: string): Promise<void> {
  try {
    const dh = await (await fsp()).open(dir, "r");
    try {
      await dh.sync();
    } finally {
      await dh.close();
    }
  } catch {
    // best effort
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to someone else.
    return errorCode(e) === "EPERM";
  }
}

/**
 * Removes temp files a crashed process left next to `path` (a crash between write and rename leaves
 * one behind). Files of a live process are kept: it may be mid-write. Best effort; returns the names removed.
 */
export async function removeStaleTempFiles(path: string): Promise<string[]> {
  const dir = dirname(path);
  const prefix = `.${basename(path)}.tmp-`;
  let names: string[];
  try {
    // Synchronous: a start runs this before its first request (one small directory), without node:fs/promises.
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = name.startsWith(prefix) ? /^(\d+)-[0-9a-f]{8}$/.exec(name.slice(prefix.length)) : null;
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || processAlive(pid)) continue;
    try {
      await (await fsp()).unlink(join(dir, name));
      removed.push(name);
    } catch {
      // another process may have removed it
    }
  }
  return removed;
}

export function errorCode(e: unknown): string {
  const code = (e as { code?: unknown })?.code;
  return typeof code === "string" && code ? code : "EIO";
}

/** D2.4's warning: the path and the OS error code, and what it means for the change. */
export function describeWriteError(path: string, e: unknown): string {
  return `cannot write ${path} (${errorCode(e)}); changes live in memory only`;
}

type Data = string | (() => string);

interface Job {
  data: Data;
  waiters: ((r: WriteResult) => void)[];
}

/**
 * One serial write queue per file. Writes requested while one is running are coalesced into a single
 * write of the latest data; every caller learns the result of the write that carried its state.
 * Failures are reported, never thrown (D2.4).
 */
export class CoalescingWriter {
  readonly path: string;
  private readonly opts: AtomicWriteOptions;
  private readonly writeFile: (path: string, data: string, opts: AtomicWriteOptions) => Promise<void>;
  private pending: Job | null = null;
  private running: Promise<void> | null = null;
  private last: WriteResult | null = null;
  /** Number of file writes performed (observability and tests). */
  writes = 0;

  constructor(path: string, opts: AtomicWriteOptions & { writeFile?: (path: string, data: string, opts: AtomicWriteOptions) => Promise<void> } = {}) {
    this.path = path;
    const { writeFile, ...rest } = opts;
    this.opts = rest;
    this.writeFile = writeFile ?? atomicWriteFile;
  }

  /** Queues the data (or a function giving the latest data at write time). */
  write(data: Data): Promise<WriteResult> {
    return new Promise((resolve) => {
      if (this.pending) this.pending.data = data;
      else this.pending = { data, waiters: [] };
      this.pending.waiters.push(resolve);
      this.start();
    });
  }

  /** The result of the most recent write, or null before the first one. */
  lastResult(): WriteResult | null {
    return this.last;
  }

  /** Resolves once every queued write has finished (shutdown, D1.4). */
  async flush(): Promise<void> {
    while (this.running) await this.running;
  }

  private start(): void {
    if (this.running) return;
    this.running = this.drain();
  }

  private async drain(): Promise<void> {
    // Yield once so writes requested in the same tick share the first write.
    await Promise.resolve();
    while (this.pending) {
      const job = this.pending;
      this.pending = null;
      const result = await this.once(job.data);
      this.last = result;
      for (const w of job.waiters) w(result);
    }
    this.running = null;
  }

  private async once(data: Data): Promise<WriteResult> {
    try {
      const text = typeof data === "function" ? data() : data;
      this.writes++;
      await this.writeFile(this.path, text, this.opts);
      return { writable: true };
    } catch (e) {
      return { writable: false, warning: describeWriteError(this.path, e) };
    }
  }
}

/** The on-disk form of the config: readable by people, stable key order as held in memory. */
export function serialiseConfig(config: unknown): string {
  return `${JSON.stringify(config, null, 2)}\n`;
}
