// Stored responses (D10.2): in memory, per owner (sha256 of the business credential), TTL counted from the
// last update, at most `maxEntries` (oldest evicted), expired entries removed on access and by a sweep.
import type { ResponsesStore, StoredResponse } from "./responses-api";

export interface ResponseStoreOptions {
  ttlMs: () => number;
  maxEntries: () => number;
  now?: () => number;
  sweepMs?: number;
}

/** The in-process store: the default backend (store.backend "memory"). */
export class ResponseStore implements ResponsesStore {
  private entries = new Map<string, StoredResponse>();
  private timer?: ReturnType<typeof setInterval>;
  private now: () => number;

  constructor(private opts: ResponseStoreOptions) {
    this.now = opts.now ?? Date.now;
    this.timer = setInterval(() => this.sweep(), opts.sweepMs ?? 60_000);
    (this.timer as { unref?: () => void }).unref?.();
  }

  put(entry: Omit<StoredResponse, "updatedAt">): void {
    // Re-inserting moves the entry to the newest position, so eviction drops the oldest update.
    this.entries.delete(entry.response.id);
    this.entries.set(entry.response.id, { ...entry, updatedAt: this.now() });
    const max = this.opts.maxEntries();
    while (this.entries.size > max) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  get(id: string, owner: string): StoredResponse | undefined {
    const e = this.entries.get(id);
    if (!e) return undefined;
    if (this.expired(e)) {
      this.entries.delete(id);
      return undefined;
    }
    return e.owner === owner ? e : undefined;
  }

  delete(id: string, owner: string): boolean {
    const e = this.get(id, owner);
    if (!e) return false;
    this.entries.delete(id);
    return true;
  }

  size(): number {
    return this.entries.size;
  }

  sweep(): void {
    for (const [id, e] of this.entries) if (this.expired(e)) this.entries.delete(id);
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private expired(e: StoredResponse): boolean {
    return this.now() - e.updatedAt > this.opts.ttlMs();
  }
}
