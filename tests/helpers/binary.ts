// End-to-end tests run the compiled binary: build it once per test run (into a temp folder so a developer's
// dist/ is untouched) and start it on a free loopback port with its own config directory.
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { scratchDir } from "./scratch";

const ROOT = resolve(import.meta.dir, "../..");
let built: Promise<string> | null = null;

export function buildBinary(): Promise<string> {
  built ??= (async () => {
    const out = join(scratchDir("svc-gw-bin-"), "svc-gateway");
    const proc = Bun.spawn(["bun", "build.ts"], { cwd: ROOT, env: { ...process.env, SVC_BUILD_OUTFILE: out }, stdout: "pipe", stderr: "pipe" });
    const code = await proc.exited;
    if (code !== 0) throw new Error(`build failed: ${await new Response(proc.stderr).text()}`);
    return out;
  })();
  return built;
}

export async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

export interface RunningBinary {
  url: string;
  port: number;
  dir: string;
  adminKey: string;
  stderr(): string;
  /** null while it runs; the exit code, or the signal that ended it. */
  exitCode(): number | string | null;
  stop(signal?: NodeJS.Signals): Promise<number>;
}

/** `dir`: start in an existing directory (a restart keeps its config.json and data). */
export async function startBinary(opts: { config?: unknown; env?: Record<string, string>; args?: string[]; dir?: string } = {}): Promise<RunningBinary> {
  const bin = await buildBinary();
  const dir = opts.dir ?? scratchDir("svc-gw-run-");
  if (opts.config !== undefined) writeFileSync(join(dir, "config.json"), JSON.stringify(opts.config));
  const port = await freePort();
  const adminKey = "e2e-admin-key";
  const proc = Bun.spawn([bin, ...(opts.args ?? [])], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: dir, PORT: String(port), SVC_HOST: "127.0.0.1", SVC_ADMIN_KEY: adminKey, SVC_CONFIG_PATH: join(dir, "config.json"), LOG_LEVEL: "warn", ...(opts.env ?? {}) },
    stdout: "pipe",
    stderr: "pipe",
  });
  let err = "";
  void (async () => {
    const reader = proc.stderr.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      err += new TextDecoder().decode(value);
    }
  })();
  void new Response(proc.stdout).text();
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {}
    if (proc.exitCode !== null) throw new Error(`binary exited with ${proc.exitCode}: ${err}`);
    await Bun.sleep(50);
  }
  return {
    url,
    port,
    dir,
    adminKey,
    stderr: () => err,
    exitCode: () => proc.exitCode ?? proc.signalCode ?? null,
    async stop(signal = "SIGTERM") {
      proc.kill(signal);
      return proc.exited;
    },
  };
}
