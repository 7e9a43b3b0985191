// One login per account at a time across instances (issue 21, item 3): a lock in Redis (SET NX with an
// expiry, released only by its holder), the newest token per account kept in Redis and announced, so the
// other instances use it instead of logging in themselves — login storms are how accounts get banned.
import type { LoginCoordinator, LoginOutcome } from "../accounts/login-coordinator";
import type { Logger } from "../util/log";
import type { SharedRedis } from "./redis";

/** Longer than a login can take (the core client's own timeout bounds it); a dead holder's lock expires. */
const LOCK_MS = 60_000;
const POLL_MS = 100;
const CHANNEL = "logins:token";

const RELEASE = String.raw`
if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end
return 0
`;

interface SharedToken {
  token: string;
  at: number;
}

export class RedisLogins implements LoginCoordinator {
  constructor(
    private readonly redis: SharedRedis,
    private readonly log: Logger,
  ) {}

  async exclusive(id: string, stale: string | undefined, login: () => Promise<string>, failed: () => boolean): Promise<LoginOutcome> {
    const lockKey = this.redis.key(`login-lock:${id}`);
    const deadline = Date.now() + LOCK_MS;
    for (;;) {
      const fresh = await this.current(id);
      if (fresh && fresh.token !== stale) return { token: fresh.token, ownLogin: false };
      const owner = Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString("hex");
      if ((await this.redis.send("SET", [lockKey, owner, "NX", "PX", String(LOCK_MS)])) === "OK") {
        try {
          // Another instance may have finished between our read and our lock.
          const again = await this.current(id);
          if (again && again.token !== stale) return { token: again.token, ownLogin: false };
          const token = await login();
          const at = Date.now();
          await this.share(id, { token, at });
          return { token, ownLogin: true };
        } finally {
          await this.redis.eval(RELEASE, [lockKey], [owner]).catch(() => {});
        }
      }
      // Someone else is logging in: wait for its token, or for its failure (the account's cooldown).
      if (failed()) throw new Error("login failed on another instance");
      if (Date.now() > deadline) throw new Error("timed out waiting for another instance's login");
      await Bun.sleep(POLL_MS);
    }
  }

  follow(adopt: (id: string, token: string, at: number) => void): void {
    void this.redis
      .subscribe(CHANNEL, (m) => {
        try {
          const { id, token, at } = JSON.parse(m) as SharedToken & { id: string };
          adopt(id, token, at);
        } catch {}
      })
      .catch((e) => this.log.warn("shared tokens not followed", { error: String((e as Error)?.message ?? e) }));
  }

  private async current(id: string): Promise<SharedToken | null> {
    const raw = (await this.redis.send("GET", [this.redis.key(`token:${id}`)])) as string | null;
    return raw ? (JSON.parse(raw) as SharedToken) : null;
  }

  private async share(id: string, t: SharedToken): Promise<void> {
    await this.redis.send("SET", [this.redis.key(`token:${id}`), JSON.stringify(t)]);
    await this.redis.publish(CHANNEL, JSON.stringify({ id, ...t }));
  }
}
