// A real redis-server for tests (issue 21): started on a free loopback port with no persistence, stopped
// (and restarted on the same port) on demand. Tests that need one skip with a clear reason when the
// binary is missing, and fail under CI=true (redisAvailable; .ci/redis.sh installs it in CI).
import { freePort } from "./binary";
import { scratchDir } from "./scratch";
import { requireTool } from "./require-tool";

export const REDIS_SERVER = Bun.which("redis-server");
export const SKIP_REASON = "redis-server is not installed (apt-get install -y redis-server, or bash .ci/redis.sh)";

/** Whether the calling test file can run its Redis suite (tests/helpers/require-tool.ts: fails under CI=true). */
export function redisAvailable(file: string): boolean {
  return requireTool(file, "redis-server", REDIS_SERVER !== null, SKIP_REASON);
}

export interface TestRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Runs a raw command through redis-cli-free RESP (Bun's client) for assertions. */
  flush(): Promise<void>;
  /** SIGSTOP / SIGCONT: a server that holds its connections open and answers nothing (issue 30). */
  pause(): void;
  resume(): void;
  /** One command on a fresh connection (assertions on what the server holds). */
  command(cmd: string, args: string[]): Promise<unknown>;
}

export async function startRedis(): Promise<TestRedis> {
  if (!REDIS_SERVER) throw new Error(SKIP_REASON);
  const port = await freePort();
  const dir = scratchDir("svc-gw-redis-");
  let proc: ReturnType<typeof Bun.spawn> | null = null;
  const url = `redis://127.0.0.1:${port}`;
  const start = async () => {
    proc = Bun.spawn([REDIS_SERVER, "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir], { stdout: "ignore", stderr: "ignore" });
    for (let i = 0; i < 200; i++) {
      try {
        const c = new Bun.RedisClient(url, { autoReconnect: false, connectionTimeout: 200 });
        await c.connect();
        await c.send("PING", []);
        c.close();
        return;
      } catch {}
      await Bun.sleep(25);
    }
    throw new Error("redis-server did not start");
  };
  await start();
  return {
    url,
    port,
    start,
    async stop() {
      if (!proc) return;
      proc.kill("SIGKILL");
      await proc.exited;
      proc = null;
    },
    pause() {
      (proc as ReturnType<typeof Bun.spawn> | null)?.kill("SIGSTOP");
    },
    resume() {
      (proc as ReturnType<typeof Bun.spawn> | null)?.kill("SIGCONT");
    },
    async command(cmd, args) {
      const c = new Bun.RedisClient(url, { autoReconnect: false });
      try {
        await c.connect();
        return await c.send(cmd, args);
      } finally {
        c.close();
      }
    },
    async flush() {
      const c = new Bun.RedisClient(url);
      await c.connect();
      await c.send("FLUSHALL", []);
      c.close();
    },
  };
}
