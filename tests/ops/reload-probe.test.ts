// SIGHUP reloads the config file without dropping a stream in flight; `svc-gateway probe` reports health by exit
// code. The gateway runs as its own process (bun src/main.ts), since signals and exit codes belong to a process.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { CoreSimulator } from "../../src/sim/index";
import { startTestSimulator } from "../helpers/sim";
import { freePort } from "../helpers/binary";
import { eventually } from "../helpers/live-gateway";
import { scratchDir } from "../helpers/scratch";

const ROOT = resolve(import.meta.dir, "../..");
const MAIN = join(ROOT, "src/main.ts");
const ADMIN = { Authorization: "Bearer reload-admin-key" };
let sim: CoreSimulator;
let dir: string;
let port: number;
let proc: ReturnType<typeof Bun.spawn>;
let out = "";

const configFile = () => join(dir, "config.json");
const writeConfig = (c: unknown) => writeFileSync(configFile(), JSON.stringify(c));
const base = { keys: ["sk-reload"], accounts: [{ email: "a@sim.test", password: "pw" }] };

function probe(p: number): { code: number; out: string } {
  const r = Bun.spawnSync(["bun", MAIN, "probe", "--port", String(p)], { env: { PATH: process.env.PATH ?? "" } });
  return { code: r.exitCode, out: r.stdout.toString() };
}

async function settings(): Promise<{ runtime: { queue_wait_seconds: number } }> {
  return (await fetch(`http://127.0.0.1:${port}/admin/settings`, { headers: ADMIN })).json();
}

beforeAll(async () => {
  sim = await startTestSimulator();
  dir = scratchDir("svc-reload-");
  writeConfig(base);
  port = await freePort();
  proc = Bun.spawn(["bun", MAIN], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: dir, PORT: String(port), SVC_HOST: "127.0.0.1", SVC_ADMIN_KEY: "reload-admin-key", SVC_CONFIG_PATH: configFile(), SVC_CORE_BASE_URL: sim.url, LOG_LEVEL: "info" },
    stdout: "pipe",
    stderr: "pipe",
  });
  void (async () => {
    const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      out += new TextDecoder().decode(value);
    }
  })();
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) break;
    } catch {}
    await Bun.sleep(50);
  }
});

afterAll(async () => {
  proc.kill("SIGTERM");
  await proc.exited;
  await sim.stop();
});

describe("svc-gateway probe", () => {
  test("exit 0 while the gateway answers /healthz, 1 where nothing listens", async () => {
    const up = probe(port);
    expect(up.code).toBe(0);
    expect(up.out).toContain("healthy");
    const down = probe(await freePort());
    expect(down.code).toBe(1);
    expect(down.out).toStartWith("unhealthy");
  });
});

describe("SIGHUP", () => {
  test("applies an edited config file while a stream started before it finishes whole", async () => {
    expect((await settings()).runtime.queue_wait_seconds).toBe(60);
    const stream = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: "Bearer sk-reload", "Content-Type": "application/json" },
      body: JSON.stringify({ model: "core-v4-flash", stream: true, messages: [{ role: "user", content: `[[sim:slow-tokens first_token_ms=10 delay_ms=30]] ${"long ".repeat(30)}` }] }),
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    await reader.read();

    writeConfig({ ...base, keys: ["sk-reload", "sk-added"], runtime: { queue_wait_seconds: 42 } });
    proc.kill("SIGHUP");
    expect(await eventually(() => out.includes('"configuration reloaded"'), 5000)).toBe(true);
    expect((await settings()).runtime.queue_wait_seconds).toBe(42);
    const added = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: "Bearer sk-added", "Content-Type": "application/json" },
      body: JSON.stringify({ model: "core-v4-flash", messages: [{ role: "user", content: "new key" }] }),
    });
    expect(added.status).toBe(200);

    let rest = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(rest.trimEnd()).toEndWith("data: [DONE]");
    expect(rest).not.toContain('"error"');
  });

  test("an invalid or missing file is reported and the running config stays", async () => {
    writeFileSync(configFile(), "{ not json");
    proc.kill("SIGHUP");
    expect(await eventually(() => out.includes('"configuration not reloaded"'), 5000)).toBe(true);
    expect(proc.exitCode).toBeNull();
    expect((await settings()).runtime.queue_wait_seconds).toBe(42);
  });
});
