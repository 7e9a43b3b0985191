// Issue 33 items 3 and 5: `demo`, a serve without a core origin (demo mode, any key works) and `sim` listen on
// loopback unless --host or SVC_HOST say otherwise — checked at the socket: 127.0.0.2 is loopback too, so it
// reaches a wildcard listener and is refused by one bound to 127.0.0.1. SIGTERM logs "draining" and "stopped";
// `demo` answers admin writes with config_writable:false and why.
import { afterEach, describe, expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { freePort } from "../helpers/binary";
import { scratchDir } from "../helpers/scratch";
import { DEMO_MEMORY_ONLY } from "../../src/context-builder";

const MAIN = resolve(import.meta.dir, "../../src/main.ts");
const ADMIN = "listen-test-admin-key";
let proc: ReturnType<typeof Bun.spawn> | undefined;

afterEach(async () => {
  proc?.kill("SIGKILL");
  await proc?.exited;
  proc = undefined;
});

interface Started {
  port: number;
  out: () => string;
  /** Resolves when stdout has closed (the process exited). */
  closed: Promise<void>;
}

/** Starts `bun src/main.ts <argv>` on a free port and waits until 127.0.0.1 answers `probePath`. */
async function start(argv: string[], env: Record<string, string> = {}, probePath = "/healthz"): Promise<Started> {
  const port = await freePort();
  const dir = scratchDir("svc-listen-");
  let out = "";
  proc = Bun.spawn(["bun", MAIN, ...argv, "--port", String(port)], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: dir, SVC_CONFIG_PATH: join(dir, "config.json"), SVC_ADMIN_KEY: ADMIN, LOG_LEVEL: "info", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = (async () => {
    const r = (proc!.stdout as ReadableStream<Uint8Array>).getReader();
    const dec = new TextDecoder();
    for (let c = await r.read(); !c.done; c = await r.read()) out += dec.decode(c.value, { stream: true });
  })();
  for (let i = 0; i < 300; i++) {
    if ((await reach("127.0.0.1", port, probePath)) !== null) return { port, out: () => out, closed: reader };
    await Bun.sleep(50);
  }
  throw new Error(`${argv.join(" ")} did not start: ${out}`);
}

/** The status at host:port, or null when the connection is refused. */
async function reach(host: string, port: number, path: string): Promise<number | null> {
  try {
    return (await fetch(`http://${host}:${port}${path}`)).status;
  } catch {
    return null;
  }
}

describe("safe listen defaults", () => {
  test("`demo` listens on 127.0.0.1 only; SIGTERM logs draining and stopped and exits 0", async () => {
    const s = await start(["demo"]);
    expect(await reach("127.0.0.2", s.port, "/healthz")).toBeNull();
    proc!.kill("SIGTERM");
    expect(await proc!.exited).toBe(0);
    await s.closed;
    const msgs = s
      .out()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l).msg);
    expect(msgs).toContain("draining");
    expect(msgs.indexOf("stopped")).toBeGreaterThan(msgs.indexOf("draining"));
  });

  test("serve without a core origin (demo mode) listens on 127.0.0.1; SVC_HOST widens it", async () => {
    const s = await start([]);
    expect(await reach("127.0.0.2", s.port, "/healthz")).toBeNull();
    proc!.kill("SIGKILL");
    await proc!.exited;
    const wide = await start([], { SVC_HOST: "0.0.0.0" });
    expect(await reach("127.0.0.2", wide.port, "/healthz")).toBe(200);
  });

  test("`demo --host 0.0.0.0` is heard on every address", async () => {
    const s = await start(["demo", "--host", "0.0.0.0"]);
    expect(await reach("127.0.0.2", s.port, "/healthz")).toBe(200);
  });

  test("`sim` listens on 127.0.0.1; --host and SVC_HOST widen it", async () => {
    const s = await start(["sim"], {}, "/");
    expect(await reach("127.0.0.2", s.port, "/")).toBeNull();
    proc!.kill("SIGKILL");
    await proc!.exited;
    const flag = await start(["sim", "--host", "0.0.0.0"], {}, "/");
    expect(await reach("127.0.0.2", flag.port, "/")).not.toBeNull();
    proc!.kill("SIGKILL");
    await proc!.exited;
    const env = await start(["sim"], { SVC_HOST: "0.0.0.0" }, "/");
    expect(await reach("127.0.0.2", env.port, "/")).not.toBeNull();
  });

  test("`demo` says its admin changes are not kept: config_writable false, with the reason", async () => {
    const s = await start(["demo"]);
    const headers = { Authorization: `Bearer ${ADMIN}`, "Content-Type": "application/json" };
    const put = await fetch(`http://127.0.0.1:${s.port}/admin/keys`, { method: "POST", headers, body: JSON.stringify({ key: "sk-kept-nowhere", name: "x" }) });
    const body = (await put.json()) as { config_writable: boolean; config_warning: string };
    expect(put.status).toBeLessThan(300);
    expect(body.config_writable).toBe(false);
    expect(body.config_warning).toBe(DEMO_MEMORY_ONLY);
    const settings = (await (await fetch(`http://127.0.0.1:${s.port}/admin/settings`, { headers })).json()) as Record<string, unknown>;
    expect(settings.config_writable).toBe(false);
  });
});
