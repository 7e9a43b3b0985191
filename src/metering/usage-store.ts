// Usage per key, per UTC day and per model (issue 20): requests, prompt and completion tokens. Keys are stored by
// fingerprint (caller:<16 hex>), never in full: the usage file is the kind of thing operators copy around.
// UsageStore is the seam for a shared implementation (issue 21); reads are synchronous because the quota check
// runs inside business authentication, so a shared store keeps a local mirror and syncs it in the background.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { atomicWriteFile, errorCode } from "../config/persist";

export interface UsageRow {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  key: string;
  model: string;
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
}

export interface UsageStore {
  add(day: string, key: string, model: string, promptTokens: number, completionTokens: number): void;
  /** Every row, in no particular order. */
  rows(): UsageRow[];
  /** Prompt + completion tokens of one key on one day, all models. */
  tokensOn(key: string, day: string): number;
  flush(): Promise<void>;
  close(): Promise<void>;
}

let dayStart = 0;
let dayEnd = -1;
let dayText = "";

/** YYYY-MM-DD in UTC. Called on every request's end and quota check: the day is formatted once per day, not per call. */
export const utcDay = (ms: number): string => {
  // NaN fails both tests and reaches toISOString, which throws as it always did.
  if (!(ms >= dayStart && ms < dayEnd)) {
    dayText = new Date(ms).toISOString().slice(0, 10);
    dayStart = Math.floor(ms / 86_400_000) * 86_400_000;
    dayEnd = dayStart + 86_400_000;
  }
  return dayText;
};

export class MemoryUsageStore implements UsageStore {
  protected readonly table = new Map<string, UsageRow>();
  private readonly daily = new Map<string, number>();

  add(day: string, key: string, model: string, promptTokens: number, completionTokens: number): void {
    const id = `${day}\u0000${key}\u0000${model}`;
    let row = this.table.get(id);
    if (!row) {
      row = { day, key, model, requests: 0, prompt_tokens: 0, completion_tokens: 0 };
      this.table.set(id, row);
    }
    row.requests += 1;
    row.prompt_tokens += promptTokens;
    row.completion_tokens += completionTokens;
    const dk = `${day}\u0000${key}`;
    this.daily.set(dk, (this.daily.get(dk) ?? 0) + promptTokens + completionTokens);
    this.changed();
  }

  rows(): UsageRow[] {
    return [...this.table.values()].map((r) => ({ ...r }));
  }

  tokensOn(key: string, day: string): number {
    return this.daily.get(`${day}\u0000${key}`) ?? 0;
  }

  protected load(rows: UsageRow[]): void {
    for (const r of rows) {
      this.table.set(`${r.day}\u0000${r.key}\u0000${r.model}`, { ...r });
      const dk = `${r.day}\u0000${r.key}`;
      this.daily.set(dk, (this.daily.get(dk) ?? 0) + r.prompt_tokens + r.completion_tokens);
    }
  }

  protected changed(): void {}

  /** Forgets every count (a shared store reloading its mirror, issue 21). */
  protected clearAll(): void {
    this.table.clear();
    this.daily.clear();
  }

  async flush(): Promise<void> {}

  async close(): Promise<void> {}
}

const isRow = (r: any): r is UsageRow =>
  r && typeof r.day === "string" && /^\d{4}-\d{2}-\d{2}$/.test(r.day) && typeof r.key === "string" && typeof r.model === "string" &&
  [r.requests, r.prompt_tokens, r.completion_tokens].every((n) => Number.isSafeInteger(n) && n >= 0);

/**
 * `<data dir>/usage.json`, rewritten atomically (D2.3) at most every `flushMs` while something changed, and on
 * close: a crash loses at most the last `flushMs` of counts.
 */
export class FileUsageStore extends MemoryUsageStore {
  private dirty = false;
  private timer?: ReturnType<typeof setInterval>;
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    readonly path: string,
    private readonly onError: (message: string) => void,
  ) {
    super();
  }

  static pathIn(dataDir: string): string {
    return join(dataDir, "usage.json");
  }

  static async open(opts: { path: string; flushMs?: number; onError: (message: string) => void }): Promise<FileUsageStore> {
    const store = new FileUsageStore(opts.path, opts.onError);
    try {
      // Synchronous: read once at start, before the first request, without node:fs/promises (util/fs-promises.ts).
      const parsed = JSON.parse(readFileSync(opts.path, "utf8"));
      const rows = Array.isArray(parsed?.rows) ? parsed.rows : [];
      store.load(rows.filter(isRow));
    } catch (e) {
      // A missing file is a fresh start; an unreadable one must not stop the gateway, but is said once.
      if (errorCode(e) !== "ENOENT") opts.onError(`usage file ${opts.path} unreadable (${e instanceof SyntaxError ? "invalid JSON" : errorCode(e)}); counting from zero`);
    }
    store.timer = setInterval(() => void store.flush(), opts.flushMs ?? 5000);
    store.timer.unref?.();
    return store;
  }

  protected override changed(): void {
    this.dirty = true;
  }

  override flush(): Promise<void> {
    // Serialised: two overlapping writes of the same file would race on the rename.
    this.writing = this.writing.then(async () => {
      if (!this.dirty) return;
      this.dirty = false;
      try {
        await atomicWriteFile(this.path, JSON.stringify({ version: 1, rows: this.rows() }));
      } catch (e) {
        this.dirty = true;
        this.onError(`usage file ${this.path} not written (${errorCode(e)})`);
      }
    });
    return this.writing;
  }

  override async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
