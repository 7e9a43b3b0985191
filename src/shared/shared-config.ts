// The configuration shared by every instance (issue 21, item 5). Redis holds the whole config (less the
// `store` section, which says how each instance reaches Redis and stays its own); the first instance seeds
// it from its file or environment, later ones adopt it. Every committed change is written and announced;
// the others adopt it through their own ConfigStore (validated, listeners run, file written), so a change
// made on one instance is in effect everywhere within milliseconds. Concurrent changes on two instances:
// the last write wins as a whole config.
import { createHash } from "node:crypto";
import type { ConfigStore } from "../config/store";
import type { Config } from "../config/schema";
import { canonicalJson } from "../config/canonical-json";
import type { Logger } from "../http/log";
import type { SharedRedis } from "./redis";

const KEY = "config";
const CHANNEL = "config:changed";

function sharedPart(c: Config): Config {
  const { store: _own, ...rest } = c;
  return rest as Config;
}

const digest = (c: Config) => createHash("sha256").update(canonicalJson(sharedPart(c))).digest("hex");

export class SharedConfig {
  /** Digest of the config last read from or written to Redis: a change with this digest is not news. */
  private known = "";
  private stopListening: (() => void) | null = null;

  constructor(
    private readonly config: ConfigStore,
    private readonly redis: SharedRedis,
    private readonly log: Logger,
  ) {}

  /** Seeds Redis or adopts what it holds, then follows changes both ways. */
  async start(): Promise<void> {
    const local = sharedPart(this.config.get());
    const seeded = await this.redis.send("SET", [this.redis.key(KEY), JSON.stringify(local), "NX"]);
    if (seeded === "OK") {
      this.known = digest(local);
      this.log.info("shared config seeded from this instance's configuration");
    } else {
      await this.pull();
    }
    await this.redis.subscribe(CHANNEL, (origin) => {
      if (origin !== this.redis.instanceId) void this.pull().catch((e) => this.log.warn("shared config could not be read", { error: String((e as Error)?.message ?? e) }));
    });
    // Changes announced while the connection was down were missed: read the current state once back.
    this.redis.onReconnect(() => void this.pull().catch(() => {}));
    this.stopListening = this.config.onChange((next) => {
      const d = digest(next);
      if (d === this.known) return;
      this.known = d;
      void this.push(next).catch((e) => this.log.error("config change not shared: Redis unavailable", { error: String((e as Error)?.message ?? e) }));
    });
  }

  stop(): void {
    this.stopListening?.();
  }

  private async push(next: Config): Promise<void> {
    await this.redis.send("SET", [this.redis.key(KEY), JSON.stringify(sharedPart(next))]);
    await this.redis.publish(CHANNEL, this.redis.instanceId);
  }

  /** Adopts the config in Redis when it differs from ours; keeps our own `store` section. */
  private async pull(): Promise<void> {
    const raw = (await this.redis.send("GET", [this.redis.key(KEY)])) as string | null;
    if (raw === null) {
      // Redis lost its data (a restart without persistence): seed it again from here.
      await this.push(this.config.get());
      this.known = digest(this.config.get());
      return;
    }
    const remote = JSON.parse(raw) as Config;
    const d = digest(remote);
    if (d === this.known || d === digest(this.config.get())) {
      this.known = d;
      return;
    }
    this.known = d;
    await this.config.update((draft) => ({ ...remote, ...(draft.store ? { store: draft.store } : {}) }) as Config);
  }
}
