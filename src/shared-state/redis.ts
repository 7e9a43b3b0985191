// One Redis server shared by every instance (issue 21): a command connection and a subscriber connection,
// Lua scripts by SHA, and the failure rule — a command that cannot complete within COMMAND_TIMEOUT_MS is a
// 503 store_unavailable, never a hang. Bun's built-in client keeps the single binary dependency-free
// (docs/choices.md has the measurements against ioredis).
import { RedisClient } from "bun";
import { GatewayError } from "../util/gateway-error";
import { redactRedisUrl } from "./settings";

/** A command slower than this counts as Redis being unavailable (the issue asks for a 503 within 2 s). */
export const COMMAND_TIMEOUT_MS = 1500;
const CONNECT_TIMEOUT_MS = 3000;

export class StoreUnavailableError extends GatewayError {
  constructor(detail?: string) {
    // D4.6: every 503 other than shutting_down says 10.
    super(503, "store_unavailable", "The gateway's shared state store is unavailable; retry shortly.", { retryAfter: 10 });
    this.name = "StoreUnavailableError";
    if (detail) this.cause = detail;
  }
}

type Handler = (message: string) => void;

const CLIENT_OPTIONS = {
  // Without Redis a command must fail at once, not wait in a queue for a reconnection that may never come.
  enableOfflineQueue: false,
  autoReconnect: true,
  maxRetries: 4_294_967_295,
  connectionTimeout: CONNECT_TIMEOUT_MS,
};

export class SharedRedis {
  /** This process among the instances: lease and queue entries carry it, messages it sent are recognised. */
  readonly instanceId = Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString("hex");
  private readonly channels = new Map<string, Handler>();
  private readonly reconnectListeners = new Set<() => void>();
  private closed = false;

  private constructor(
    private readonly cmd: RedisClient,
    private readonly sub: RedisClient,
    readonly prefix: string,
  ) {
    // Bun's client reconnects by itself but does not restore subscriptions on the new connection.
    // The listeners (a re-sync of what may have changed unseen) run once the subscriptions are back: run before,
    // an announcement published between their look and the resubscription would be missed for good.
    sub.onconnect = () => {
      if (this.closed) return;
      const resubscribed = [...this.channels].map(([ch, h]) =>
        sub
          .unsubscribe(ch)
          .catch(() => {})
          .then(() => sub.subscribe(ch, h))
          .catch(() => {}),
      );
      void Promise.all(resubscribed).then(() => {
        if (!this.closed) for (const l of this.reconnectListeners) l();
      });
    };
  }

  /** Connects both connections; throws a clear Error (no password in it) when the server cannot be reached. */
  static async connect(url: string, prefix: string): Promise<SharedRedis> {
    const cmd = new RedisClient(url, CLIENT_OPTIONS);
    const sub = new RedisClient(url, CLIENT_OPTIONS);
    try {
      await withTimeout(Promise.all([cmd.connect(), sub.connect()]), CONNECT_TIMEOUT_MS);
      await withTimeout(cmd.send("PING", []), CONNECT_TIMEOUT_MS);
    } catch (e) {
      cmd.close();
      sub.close();
      const why = e instanceof StoreUnavailableError ? String(e.cause) : (e as Error).message || String(e);
      throw new Error(`cannot reach Redis at ${redactRedisUrl(url)} (store.backend "redis"): ${why.replaceAll(url, redactRedisUrl(url))}`);
    }
    return new SharedRedis(cmd, sub, prefix);
  }

  key(name: string): string {
    return this.prefix + name;
  }

  /** Any command; StoreUnavailableError when Redis does not answer in time. */
  async send(command: string, args: string[], timeoutMs = COMMAND_TIMEOUT_MS): Promise<unknown> {
    try {
      return await withTimeout(this.cmd.send(command, args), timeoutMs);
    } catch (e) {
      if (e instanceof StoreUnavailableError) throw e;
      // A reply error from a working server (a script bug, NOSCRIPT) is not an outage: let it through.
      if (isReplyError(e)) throw e;
      throw new StoreUnavailableError(String((e as Error)?.message ?? e));
    }
  }

  /**
   * Runs a Lua script. Always EVAL with the text (Redis caches the compiled script): EVALSHA would need a
   * retry after a server restart, and a retried command can overtake one sent after it on this connection,
   * while the pool relies on its commands running in the order they were sent.
   */
  async eval(script: string, keys: string[], args: (string | number)[], timeoutMs = COMMAND_TIMEOUT_MS): Promise<unknown> {
    return this.send("EVAL", [script, String(keys.length), ...keys, ...args.map(String)], timeoutMs);
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.send("PUBLISH", [this.key(channel), message]);
  }

  async subscribe(channel: string, handler: Handler): Promise<void> {
    const full = this.key(channel);
    this.channels.set(full, handler);
    await withTimeout(this.sub.subscribe(full, handler), CONNECT_TIMEOUT_MS);
  }

  /** Called after the subscriber connection came back: state may have changed unseen meanwhile. */
  onReconnect(listener: () => void): void {
    this.reconnectListeners.add(listener);
  }

  close(): void {
    this.closed = true;
    this.cmd.close();
    this.sub.close();
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new StoreUnavailableError(`no answer within ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}

/** Redis answered with an error reply; LOADING/BUSY/MASTERDOWN/READONLY mean the server cannot serve yet. */
function isReplyError(e: unknown): boolean {
  const msg = String((e as Error)?.message ?? "");
  if (/^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN)\b/.test(msg)) return false;
  return /^(ERR|WRONGTYPE|NOSCRIPT|NOPERM|NOAUTH|WRONGPASS|EXECABORT)\b/.test(msg);
}
