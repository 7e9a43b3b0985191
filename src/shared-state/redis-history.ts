// Chat history shared by every instance (issue 21, item 4): /admin/history on any instance lists the
// requests all of them served. The admin routes read the store synchronously, so each instance keeps the
// whole list (bounded by chat_history.limit) and Redis replicates it: entries are written to one hash and
// announced (a streaming entry at most every FLUSH_MS, not per delta), deletions and clears likewise; a
// starting or reconnecting instance loads the hash.
import type { ChatHistoryStore, HistoryEntry, HistoryReplica } from "../store/chat-history";
import type { Logger } from "../util/log";
import type { SharedRedis } from "./redis";

const CHANNEL = "history:changed";
const FLUSH_MS = 250;

type Message = { origin: string } & ({ op: "save"; entry: HistoryEntry } | { op: "delete"; ids: string[] } | { op: "clear" });

export class RedisHistoryReplica implements HistoryReplica {
  private pending = new Map<string, HistoryEntry>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly store: ChatHistoryStore,
    private readonly redis: SharedRedis,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    await this.redis.subscribe(CHANNEL, (m) => this.receive(m));
    this.redis.onReconnect(() => void this.load().catch(() => {}));
    await this.load();
    this.store.attachReplica(this);
  }

  saved(e: HistoryEntry): void {
    this.pending.set(e.id, e);
    // A finished entry goes at once; a streaming one at most every FLUSH_MS.
    if (e.status !== "streaming") return void this.flush();
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  deleted(ids: string[]): void {
    if (ids.length === 0) return;
    for (const id of ids) this.pending.delete(id);
    this.send(async () => {
      await this.redis.send("HDEL", [this.key(), ...ids]);
      await this.announce({ op: "delete", ids });
    });
  }

  cleared(): void {
    this.pending.clear();
    this.send(async () => {
      await this.redis.send("DEL", [this.key()]);
      await this.announce({ op: "clear" });
    });
  }

  /** Writes what is pending now (tests, shutdown). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const entries = [...this.pending.values()];
    this.pending.clear();
    if (entries.length === 0) return;
    try {
      await this.redis.send("HSET", [this.key(), ...entries.flatMap((e) => [e.id, JSON.stringify(e)])]);
      for (const entry of entries) await this.announce({ op: "save", entry });
    } catch (e) {
      this.log.warn("chat history not shared: shared store unavailable", { error: String((e as Error)?.message ?? e) });
    }
  }

  private key(): string {
    return this.redis.key("history");
  }

  private send(work: () => Promise<void>): void {
    work().catch((e) => this.log.warn("chat history not shared: shared store unavailable", { error: String((e as Error)?.message ?? e) }));
  }

  private announce(m: Record<string, unknown>): Promise<void> {
    return this.redis.publish(CHANNEL, JSON.stringify({ ...m, origin: this.redis.instanceId }));
  }

  private receive(raw: string): void {
    let m: Message;
    try {
      m = JSON.parse(raw) as Message;
    } catch {
      return;
    }
    if (m.origin === this.redis.instanceId) return;
    if (m.op === "save") this.store.applyRemote(m.entry);
    else if (m.op === "delete") this.store.removeRemote(m.ids);
    else if (m.op === "clear") this.store.clearRemote();
  }

  private async load(): Promise<void> {
    const flat = (await this.redis.send("HGETALL", [this.key()])) as string[] | Record<string, string>;
    const values = Array.isArray(flat) ? flat.filter((_, i) => i % 2 === 1) : Object.values(flat);
    for (const v of values) {
      try {
        this.store.applyRemote(JSON.parse(v) as HistoryEntry);
      } catch {}
    }
    this.store.enforceLimit();
  }
}
