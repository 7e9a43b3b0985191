// Account health shared by the instances on one Redis (issue 32): each record is kept at health:<id> and every
// change is announced, so all instances show the same state and history; the probe that is due runs on the one
// instance that takes its lock. Last writer wins: two instances recording failures at the same instant may
// lose one event (the history is a diagnosis aid, the cooldown itself lives in the shared pool).
import type { AccountHealth, HealthRecord, HealthSharing } from "../accounts/health";
import type { Logger } from "../util/log";
import type { SharedRedis } from "./redis";

const CHANNEL = "health:changed";
/** Longer than a probe may take (its calls have their own timeouts); a dead prober's lock expires. */
const PROBE_LOCK_MS = 90_000;
const RELEASE = String.raw`
if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end
return 0
`;

export class RedisHealth implements HealthSharing {
  constructor(
    private readonly redis: SharedRedis,
    private readonly log: Logger,
  ) {}

  /** Loads the stored records of the configured accounts and follows the others' changes. */
  async start(health: AccountHealth, ids: () => string[]): Promise<void> {
    await this.redis.subscribe(CHANNEL, (m) => {
      try {
        const { id, instance, record } = JSON.parse(m) as { id: string; instance: string; record: HealthRecord };
        if (instance !== this.redis.instanceId) health.adopt(id, record);
      } catch {}
    });
    for (const id of ids()) {
      const raw = (await this.redis.send("GET", [this.key(id)]).catch(() => null)) as string | null;
      if (raw) health.adopt(id, JSON.parse(raw) as HealthRecord);
    }
    health.share(this);
  }

  publish(id: string, record: HealthRecord): void {
    const json = JSON.stringify(record);
    void this.redis
      .send("SET", [this.key(id), json])
      .then(() => this.redis.publish(CHANNEL, JSON.stringify({ id, instance: this.redis.instanceId, record })))
      .catch((e) => this.log.warn("account health not shared", { error: String((e as Error)?.message ?? e) }));
  }

  async claimProbe(id: string): Promise<boolean> {
    return (await this.redis.send("SET", [this.redis.key(`health-probe:${id}`), this.redis.instanceId, "NX", "PX", String(PROBE_LOCK_MS)])) === "OK";
  }

  releaseProbe(id: string): void {
    void this.redis.eval(RELEASE, [this.redis.key(`health-probe:${id}`)], [this.redis.instanceId]).catch(() => {});
  }

  private key(id: string): string {
    return this.redis.key(`health:${id}`);
  }
}
