// Stored responses on Redis (issue 21, item 4): GET /v1/responses/{id} and previous_response_id work on
// every instance. One key per response with the TTL as Redis expiry (counted from the last update, like
// the memory store), plus an index by update time that bounds the count at store_max_entries (oldest out).
import type { Logger } from "../util/log";
import type { ResponsesStore } from "../store/responses-api";
import type { StoredResponse } from "../store/responses-api";
import type { SharedRedis } from "./redis";

const PUT_SCRIPT = String.raw`
-- KEYS: 1 the response key  2 the index (zset id -> update ms)   ARGV: 1 id  2 json  3 ttl ms  4 max entries  5 key prefix
local t = redis.call("TIME")
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call("SET", KEYS[1], ARGV[2], "PX", ARGV[3])
redis.call("ZADD", KEYS[2], now, ARGV[1])
-- Index entries older than the TTL point at expired keys.
redis.call("ZREMRANGEBYSCORE", KEYS[2], "-inf", now - tonumber(ARGV[3]))
local over = redis.call("ZCARD", KEYS[2]) - tonumber(ARGV[4])
if over > 0 then
  -- ZPOPMIN answers member, score, member, score...
  local popped = redis.call("ZPOPMIN", KEYS[2], over)
  for i = 1, #popped, 2 do redis.call("DEL", ARGV[5] .. popped[i]) end
end
return 1
`;

export class RedisResponseStore implements ResponsesStore {
  constructor(
    private readonly opts: { redis: SharedRedis; ttlMs: () => number; maxEntries: () => number; log: Logger; now?: () => number },
  ) {}

  private key(id: string): string {
    return this.opts.redis.key(`resp:${id}`);
  }

  async put(entry: Omit<StoredResponse, "updatedAt">): Promise<void> {
    const id = entry.response.id;
    const value: StoredResponse = { ...entry, updatedAt: (this.opts.now ?? Date.now)() };
    try {
      await this.opts.redis.eval(PUT_SCRIPT, [this.key(id), this.opts.redis.key("resp-index")], [id, JSON.stringify(value), this.opts.ttlMs(), this.opts.maxEntries(), this.opts.redis.key("resp:")]);
    } catch (e) {
      this.opts.log.warn("response not stored: shared store unavailable", { id, error: String((e as Error)?.message ?? e) });
    }
  }

  async get(id: string, owner: string): Promise<StoredResponse | undefined> {
    const raw = (await this.opts.redis.send("GET", [this.key(id)])) as string | null;
    if (raw === null) return undefined;
    const e = JSON.parse(raw) as StoredResponse;
    return e.owner === owner ? e : undefined;
  }

  async delete(id: string, owner: string): Promise<boolean> {
    if (!(await this.get(id, owner))) return false;
    await this.opts.redis.send("DEL", [this.key(id)]);
    await this.opts.redis.send("ZREM", [this.opts.redis.key("resp-index"), id]);
    return true;
  }

  close(): void {}
}
