// File affinity shared by every instance (issue 21, item 4): a file uploaded through one instance binds
// later requests on any instance to the same account. The question "which account owns these files" is
// asked synchronously on the request path, so each instance keeps the memory map and Redis replicates it:
// an upload is written (one key per file, 24 h expiry) and announced; others add it to their map at once;
// a starting or reconnecting instance loads what Redis holds.
import { FileAffinity, FILE_AFFINITY_TTL_MS, type Owner } from "../accounts/file-affinity";
import type { Logger } from "../util/log";
import type { SharedRedis } from "./redis";

const CHANNEL = "files:remembered";

export class RedisFileAffinity extends FileAffinity {
  constructor(
    private readonly redis: SharedRedis,
    private readonly log: Logger,
    now: () => number = Date.now,
  ) {
    super(now);
  }

  async start(): Promise<void> {
    await this.redis.subscribe(CHANNEL, (m) => this.receive(m));
    this.redis.onReconnect(() => void this.load().catch(() => {}));
    await this.load();
  }

  override remember(fileId: string, owner: { account: string | null; tokenHash?: string }): void {
    const o: Owner = { account: owner.account ?? "", tokenHash: owner.tokenHash, at: this.now() };
    this.adopt(fileId, o);
    const message = JSON.stringify({ id: fileId, ...o });
    void (async () => {
      await this.redis.send("SET", [this.key(fileId), message, "PX", String(FILE_AFFINITY_TTL_MS)]);
      await this.redis.publish(CHANNEL, message);
    })().catch((e) => this.log.warn("file affinity not shared: shared store unavailable", { error: String((e as Error)?.message ?? e) }));
  }

  private key(fileId: string): string {
    return this.redis.key(`file:${fileId}`);
  }

  private receive(message: string): void {
    try {
      const { id, ...o } = JSON.parse(message) as Owner & { id: string };
      if (typeof id === "string") this.adopt(id, o);
    } catch {}
  }

  /** Every file Redis still remembers (at most 24 h of uploads). */
  private async load(): Promise<void> {
    let cursor = "0";
    do {
      const [next, keys] = (await this.redis.send("SCAN", [cursor, "MATCH", this.key("*"), "COUNT", "1000"])) as [string, string[]];
      cursor = next;
      if (keys.length === 0) continue;
      const values = (await this.redis.send("MGET", keys)) as (string | null)[];
      for (const v of values) if (v) this.receive(v);
    } while (cursor !== "0");
  }
}
