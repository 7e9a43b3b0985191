// What the benchmarks that run the compiled gateway and its references as processes share: a free loopback
// port to start one on, waiting until it answers, and starting the gateway binary and the reference proxies.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "../tests/helpers/binary";
import { scratchDir } from "../tests/helpers/scratch";

export { freePort };

/** CPU time of a process, all its threads, in ms: schedstat counts nanoseconds where /proc/<pid>/stat counts 10 ms ticks. */
export function cpuMs(pid: number): number {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return ns / 1e6;
}

/**
 * CPU ns of a process by thread: the main thread as "main", the others by their name with a trailing number
 * dropped, so that threads of one kind ("HeapHelper1", "HeapHelper2") are summed.
 */
export function threadNs(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const ns = Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
      const name = task === String(pid) ? "main" : readFileSync(`/proc/${pid}/task/${task}/comm`, "utf8").trim().replace(/\d+$/, "");
      out[name] = (out[name] ?? 0) + ns;
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return out;
}

export async function waitReady(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      await fetch(url);
      return;
    } catch {}
    await Bun.sleep(50);
  }
  throw new Error(`${url} never answered`);
}

/** The simulator from source (difficulty 1000, as the benches run core), in a process of its own; ready when it answers. */
export async function startSourceSimulator(): Promise<{ url: string; stop(): void }> {
  const port = await freePort();
  const proc = Bun.spawn(["bun", join(import.meta.dir, "..", "src/main.ts"), "sim", "--port", String(port), "--difficulty", "1000"], { stdout: "ignore", stderr: "inherit" });
  const url = `http://127.0.0.1:${port}`;
  await waitReady(`${url}/_sim/state`);
  return { url, stop: () => proc.kill() };
}

/** `n` chat completions ("hello") over `conns` connections, each read to its end; any status but 200 fails the bench. */
export async function loadChat(url: string, key: string, n: number, conns: number, stream = false): Promise<void> {
  let next = 0;
  const body = JSON.stringify({ model: "core-v4-flash", stream, messages: [{ role: "user", content: "hello" }] });
  await Promise.all(
    Array.from({ length: conns }, async () => {
      while (next++ < n) {
        const r = await fetch(`${url}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body });
        if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${await r.text()}`);
        await r.arrayBuffer();
      }
    }),
  );
}

export interface BenchProcess {
  url: string;
  port: number;
  pid: number;
  stop(): void;
}

/** The compiled gateway with `config` in a fresh directory, pointed at `core`; ready when /readyz answers. Its
 * stderr goes to the bench's own, or to the file `stderrPath` for a bench that reads it (bench/gc-per-request.ts). */
/** `binary` is the compiled gateway, or a whole command (the gateway from source: ["bun", …, "src/main.ts"]). */
export async function startGatewayProcess(binary: string | string[], core: string, config: unknown, extraEnv: Record<string, string> = {}, stderrPath?: string): Promise<BenchProcess> {
  const dir = scratchDir("svc-bench-");
  writeFileSync(join(dir, "config.json"), JSON.stringify(config));
  const port = await freePort();
  const proc = Bun.spawn(typeof binary === "string" ? [binary] : binary, {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: dir, PORT: String(port), SVC_HOST: "127.0.0.1", SVC_ADMIN_KEY: "bench-admin", SVC_CONFIG_PATH: join(dir, "config.json"), SVC_CORE_BASE_URL: core, ...extraEnv },
    stdout: "ignore",
    stderr: stderrPath ? Bun.file(stderrPath) : "inherit",
  });
  const url = `http://127.0.0.1:${port}`;
  await waitReady(`${url}/readyz`);
  return { url, port, pid: proc.pid, stop: () => proc.kill() };
}

export type ReferenceMode = "same-calls" | "same-calls-worker" | "bare" | "reading" | "floor-bun" | "floor-elysia";

/**
 * One of bench/gateway-proxy.ts's references, or (floor-*) bench/request-floor.ts's, logged in as `account` where
 * its mode calls core itself.
 */
export async function startProxyProcess(mode: ReferenceMode, core: string, account: { email: string; password: string }, extraEnv: Record<string, string> = {}, stderrPath?: string): Promise<BenchProcess> {
  const port = await freePort();
  const [script, arg] = mode.startsWith("floor-") ? ["request-floor.ts", mode.slice("floor-".length)] : ["gateway-proxy.ts", mode];
  const proc = Bun.spawn(["bun", join(import.meta.dir, script), arg, core, String(port), account.email, account.password], {
    env: { PATH: process.env.PATH ?? "", BUN_CONFIG_MAX_HTTP_REQUESTS: "65535", ...extraEnv },
    stdout: "ignore",
    stderr: stderrPath ? Bun.file(stderrPath) : "inherit",
  });
  const url = `http://127.0.0.1:${port}`;
  await waitReady(url);
  return { url, port, pid: proc.pid, stop: () => proc.kill() };
}
