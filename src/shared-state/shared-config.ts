// The configuration shared by every instance (issues 21, 30). Redis holds the whole config (less the `store`
// section, which says how each instance reaches Redis and stays its own) under `config`, and its version under
// `config:version`; every instance keeps the version it holds in its own file as `_config_version`.
//
// A change is acknowledged only once it is shared: ConfigStore asks this gate before it commits anything, and
// the gate writes the change to Redis with a compare-and-set on the version the change was made on. Redis
// unreachable → 503 store_unavailable and nothing changes (not memory, not file). Another instance wrote
// first → its config is adopted and the change is made again on top of it, so two instances' writes never
// erase each other. A write that reaches a paused Redis after the caller gave up finds its deadline passed and
// does nothing: a 503 never turns into a change later.
//
// Re-seeding (a Redis restarted empty): every instance, at start, on reconnect and on each announcement, offers
// its own config and version; the higher version is kept (ties keep what Redis holds), and everyone adopts it.
// An acknowledged write has the highest version there is, and the instance that made it holds it in memory and
// in its file, so whichever instance comes back first, the write survives.
import { InvalidConfigError, type ConfigStore, type GateResult } from "../config/store";
import type { Config } from "../config/schema";
import { canonicalJson } from "../config/canonical-json";
import type { Logger } from "../util/log";
import { COMMAND_TIMEOUT_MS, StoreUnavailableError, type SharedRedis } from "./redis";

const KEY = "config";
const VERSION_KEY = "config:version";
const CHANNEL = "config:changed";
/** A write Redis runs later than this after it was sent does nothing (its own clock decides). */
const WRITE_DEADLINE_MS = COMMAND_TIMEOUT_MS;
/**
 * How long the caller waits for that write: longer than the deadline by more than any error in the measured
 * clock offset, so a write the caller has given up on (503) can no longer take effect.
 */
const WRITE_WAIT_MS = WRITE_DEADLINE_MS + 1000;

// Offer a config: kept when Redis holds none or an older version; else Redis's config comes back.
const SEED = `
local cur = redis.call('GET', KEYS[1])
local v = tonumber(redis.call('GET', KEYS[2]) or '0')
local mine = tonumber(ARGV[1])
if (not cur) or v < mine then
  redis.call('SET', KEYS[1], ARGV[2])
  redis.call('SET', KEYS[2], ARGV[1])
  redis.call('PUBLISH', KEYS[3], ARGV[3])
  return {'seeded', ARGV[1]}
end
return {'stored', tostring(v), cur}
`;

// Write a change made on version ARGV[1]: only if Redis still holds that version (or nothing), and only before
// the deadline (Redis's own clock, ms). The announcement is part of the write, so it cannot be lost alone.
const WRITE = `
local t = redis.call('TIME')
if tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) > tonumber(ARGV[3]) then return {'expired'} end
local cur = redis.call('GET', KEYS[1])
local v = tonumber(redis.call('GET', KEYS[2]) or '0')
local base = tonumber(ARGV[1])
if cur and v ~= base then return {'conflict', tostring(v), cur} end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], tostring(base + 1))
redis.call('PUBLISH', KEYS[3], ARGV[4])
return {'ok', tostring(base + 1)}
`;

/** What every instance shares: the config without the instance's own `store` section and version. */
function sharedPart(c: Config): Config {
  const { store: _own, _config_version: _v, ...rest } = c;
  return rest as Config;
}

// Bun's native hasher, not node:crypto: that module costs a cold start ≈ 15 ms to load (issue 35).
const digest = (c: Config) => Bun.CryptoHasher.hash("sha256", canonicalJson(sharedPart(c)), "hex");
const versionOf = (c: Config) => c._config_version ?? 0;

/** `remote` (a shared part) as this instance holds it: with its own `store` section and the shared version. */
function localised(remote: Config, version: number, own: Config): Config {
  return { ...remote, ...(own.store ? { store: own.store } : {}), _config_version: version };
}

export class SharedConfig {
  /** Redis's clock minus ours (ms), so a write's deadline is in the clock that checks it. */
  private clockOffsetMs = 0;
  /** A sync is owed (an announcement, a reconnect) and not done yet; one loop retries until it is. */
  private owed = false;
  private syncing = false;
  private stopped = false;

  constructor(
    private readonly config: ConfigStore,
    private readonly redis: SharedRedis,
    private readonly log: Logger,
  ) {}

  /** Seeds Redis or adopts what it holds, then gates every change and follows the other instances'. */
  async start(): Promise<void> {
    await this.measureClock();
    await this.sync();
    await this.redis.subscribe(CHANNEL, (origin) => {
      if (origin !== this.redis.instanceId) this.resync();
    });
    // Announcements missed while the connection was down, or a Redis that came back empty: offer ours again.
    this.redis.onReconnect(() => this.resync());
    this.config.setGate((next, prev) => this.write(next, prev));
  }

  stop(): void {
    this.stopped = true;
    this.config.setGate(null);
  }

  /**
   * Syncs until one sync succeeds after the latest request. The subscriber connection may be back before the
   * command connection is: a single try would then fail, and an instance holding the newest write would
   * never re-seed an empty Redis.
   */
  private resync(): void {
    this.owed = true;
    if (this.syncing) return;
    this.syncing = true;
    void (async () => {
      for (let delay = 100; this.owed && !this.stopped; delay = Math.min(delay * 2, 2000)) {
        this.owed = false;
        try {
          await this.measureClock();
          await this.sync();
        } catch (e) {
          // A shared config this instance finds invalid will not become valid by asking again.
          if (e instanceof InvalidConfigError) {
            this.log.error("shared config not adopted: invalid here", { error: e.message });
            continue;
          }
          this.owed = true;
          this.unavailable("shared config could not be synced", e);
          await Bun.sleep(delay);
        }
      }
      this.syncing = false;
    })();
  }

  private unavailable(msg: string, e: unknown): void {
    this.log.warn(msg, { error: String((e as Error)?.message ?? e) });
  }

  private async measureClock(): Promise<void> {
    const before = Date.now();
    const [sec, usec] = (await this.redis.send("TIME", [])) as [string, string];
    const after = Date.now();
    this.clockOffsetMs = Number(sec) * 1000 + Math.floor(Number(usec) / 1000) - Math.round((before + after) / 2);
  }

  private keys(): string[] {
    return [this.redis.key(KEY), this.redis.key(VERSION_KEY), this.redis.key(CHANNEL)];
  }

  /** Offers our config; adopts Redis's when it is newer (or as new and different). */
  private async sync(): Promise<void> {
    const local = this.config.get();
    const reply = (await this.redis.eval(SEED, this.keys(), [versionOf(local), JSON.stringify(sharedPart(local)), this.redis.instanceId])) as string[];
    if (reply[0] === "seeded") {
      this.log.info("shared config seeded from this instance's configuration", { version: versionOf(local) });
      return;
    }
    const version = Number(reply[1]);
    const remote = JSON.parse(reply[2]!) as Config;
    const adopted = await this.config.adopt((current) => {
      // Checked again in the store's queue: a change committed meanwhile may be newer than what was read.
      if (version < versionOf(current)) return null;
      if (version === versionOf(current) && digest(remote) === digest(current)) return null;
      return localised(remote, version, current);
    });
    if (adopted) this.log.info("shared config adopted", { version });
  }

  /** The gate: shares `next` (made on `prev`) or says why not. Runs inside the store's queue, so it never calls it. */
  private async write(next: Config, prev: Config): Promise<GateResult> {
    const base = versionOf(prev);
    // Nothing shared changed (a token-less no-op, a `store` edit): nothing to tell the others.
    if (digest(next) === digest(prev)) {
      const { _config_version: _file, ...rest } = next;
      return { ok: true, config: prev._config_version == null ? rest : { ...rest, _config_version: prev._config_version } };
    }
    const deadline = Date.now() + this.clockOffsetMs + WRITE_DEADLINE_MS;
    const reply = (await this.redis.eval(WRITE, this.keys(), [base, JSON.stringify(sharedPart(next)), deadline, this.redis.instanceId], WRITE_WAIT_MS)) as string[];
    if (reply[0] === "ok") return { ok: true, config: { ...next, _config_version: Number(reply[1]) } };
    if (reply[0] === "expired") throw new StoreUnavailableError("the write reached Redis after its deadline");
    const version = Number(reply[1]);
    if (version > base) return { ok: false, newer: localised(JSON.parse(reply[2]!) as Config, version, prev) };
    // Redis holds an older version than ours: it came back empty and someone older re-seeded first. Ours is
    // newer, so offer it, then make the change again on whatever Redis keeps.
    const seed = (await this.redis.eval(SEED, this.keys(), [base, JSON.stringify(sharedPart(prev)), this.redis.instanceId])) as string[];
    if (seed[0] === "seeded") return { ok: false, newer: prev };
    return { ok: false, newer: localised(JSON.parse(seed[2]!) as Config, Number(seed[1]), prev) };
  }
}
