// Usage per key shared by every instance (issue 21, item 4; the store is issue 20's): the daily quota check
// reads synchronously inside business authentication, so each instance keeps the whole table as a local mirror
// (MemoryUsageStore) and Redis is the total: every add is counted in Redis (HINCRBY, atomic across instances)
// and announced; the others add the same delta to their mirror; a start or reconnect reloads the mirror.
import { MemoryUsageStore, type UsageRow } from "../metering/usage-store";
import type { Logger } from "../util/log";
import type { SharedRedis } from "./redis";

const CHANNEL = "usage:added";
const SEP = "\u0000";

interface Delta {
  origin: string;
  day: string;
  key: string;
  model: string;
  p: number;
  c: number;
}

const ADD = String.raw`
-- KEYS: 1 the usage hash   ARGV: 1 row id  2 prompt tokens  3 completion tokens  4 channel  5 message
redis.call("HINCRBY", KEYS[1], ARGV[1] .. "\0r", 1)
redis.call("HINCRBY", KEYS[1], ARGV[1] .. "\0p", ARGV[2])
redis.call("HINCRBY", KEYS[1], ARGV[1] .. "\0c", ARGV[3])
redis.call("PUBLISH", ARGV[4], ARGV[5])
return 1
`;

export class RedisUsageStore extends MemoryUsageStore {
  private constructor(
    private readonly redis: SharedRedis,
    private readonly log: Logger,
  ) {
    super();
  }

  static async open(redis: SharedRedis, log: Logger): Promise<RedisUsageStore> {
    const store = new RedisUsageStore(redis, log);
    await redis.subscribe(CHANNEL, (m) => store.receive(m));
    redis.onReconnect(() => void store.reload().catch(() => {}));
    await store.reload();
    return store;
  }

  override add(day: string, key: string, model: string, promptTokens: number, completionTokens: number): void {
    super.add(day, key, model, promptTokens, completionTokens);
    const message = JSON.stringify({ origin: this.redis.instanceId, day, key, model, p: promptTokens, c: completionTokens } satisfies Delta);
    this.redis
      .eval(ADD, [this.redis.key("usage")], [[day, key, model].join(SEP), promptTokens, completionTokens, this.redis.key(CHANNEL), message])
      .catch((e) => this.log.warn("usage not counted in the shared store: unavailable", { error: String((e as Error)?.message ?? e) }));
  }

  private receive(raw: string): void {
    try {
      const d = JSON.parse(raw) as Delta;
      if (d.origin !== this.redis.instanceId) super.add(d.day, d.key, d.model, d.p, d.c);
    } catch {}
  }

  /** The mirror becomes Redis's table. */
  private async reload(): Promise<void> {
    const flat = (await this.redis.send("HGETALL", [this.redis.key("usage")])) as string[] | Record<string, string>;
    const pairs: [string, string][] = Array.isArray(flat) ? flat.flatMap((v, i) => (i % 2 === 0 ? [[v, flat[i + 1]!] as [string, string]] : [])) : Object.entries(flat);
    const rows = new Map<string, UsageRow>();
    for (const [field, value] of pairs) {
      const parts = field.split(SEP);
      if (parts.length !== 4) continue;
      const [day, key, model, kind] = parts as [string, string, string, string];
      const id = [day, key, model].join(SEP);
      const row = rows.get(id) ?? { day, key, model, requests: 0, prompt_tokens: 0, completion_tokens: 0 };
      const n = Number(value);
      if (kind === "r") row.requests = n;
      else if (kind === "p") row.prompt_tokens = n;
      else if (kind === "c") row.completion_tokens = n;
      rows.set(id, row);
    }
    this.clearAll();
    this.load([...rows.values()]);
  }
}
