// The container image without a container engine (issue 20): the root filesystem the Dockerfile's final stage
// produces — the binary, the libraries `ldd` names (what the distroless base provides for it), /etc/passwd with
// the nonroot user, /data owned by it — assembled in a temp dir and run chrooted, as that user, in its own mount
// and PID namespaces with /proc and /dev mounted as a container runtime would, against the core simulator.
// Needs root (chroot, unshare): runs from .ci/container-check.sh with SVC_CONTAINER_TEST=1.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { CoreSimulator } from "../../src/sim/index";
import { buildBinary, freePort } from "../helpers/binary";
import { scratchDir } from "../helpers/scratch";
import { optInSuite } from "../helpers/require-tool";
import { startTestSimulator } from "../helpers/sim";
import { readFinalStage, type FinalStage } from "./dockerfile";
import { assembleRootfs } from "./assemble";

const ENABLED = optInSuite(import.meta.path, process.env.SVC_CONTAINER_TEST === "1", "needs root (chroot, unshare); runs from .ci/container-check.sh (SVC_CONTAINER_TEST=1)");
const ROOT = resolve(import.meta.dir, "../..");
const ADMIN_KEY = "container-admin-key";
let stage: FinalStage;
let rootfs: string;
let sim: CoreSimulator;
let port: number;
let gateway: ReturnType<typeof Bun.spawn> | undefined;
let uid: number;
let gid: number;

/**
 * Runs `argv` inside the image: new mount and PID namespaces, /dev and /proc mounted as a container runtime
 * does (a compiled bun binary reads itself through /proc/self/exe), chroot as the image's user. The host's sh
 * and mount run before the chroot; inside there is only what the rootfs holds.
 */
function inImage(argv: string[]): string[] {
  const setup = `mount --bind /dev "$ROOTFS/dev" && mount -t proc proc "$ROOTFS/proc" && exec chroot --userspec=${uid}:${gid} "$ROOTFS" "$@"`;
  return ["unshare", "--mount", "--pid", "--fork", "--kill-child", "--", "sh", "-c", setup, "in-image", ...argv];
}

function imageEnv(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", ROOTFS: rootfs, ...stage.env, PORT: String(port), ...extra };
}

describe.skipIf(!ENABLED)("the container's root filesystem", () => {
  beforeAll(async () => {
    stage = readFinalStage(join(ROOT, "Dockerfile"));
    rootfs = scratchDir("svc-rootfs-");
    ({ uid, gid } = assembleRootfs(rootfs, stage, await buildBinary()));

    sim = await startTestSimulator();
    port = await freePort();
    gateway = Bun.spawn(inImage([...stage.entrypoint, ...stage.cmd]), {
      env: imageEnv({ SVC_ADMIN_KEY: ADMIN_KEY, SVC_CORE_BASE_URL: sim.url, LOG_LEVEL: "warn" }),
      stdout: "ignore",
      stderr: "pipe",
    });
    for (let i = 0; i < 300 && gateway.exitCode === null; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) break;
      } catch {}
      await Bun.sleep(50);
    }
  }, 120_000);

  afterAll(async () => {
    if (gateway && gateway.exitCode === null) {
      // unshare does not pass SIGTERM on to the namespace's first process: signal the gateway itself (the child
      // unshare forked), as a container runtime signals PID 1; SIGKILL to unshare would kill it via --kill-child.
      const child = readFileSync(`/proc/${gateway.pid}/task/${gateway.pid}/children`, "utf8").trim().split(/\s+/)[0];
      if (child) process.kill(Number(child), "SIGTERM");
      else gateway.kill("SIGKILL");
      await gateway.exited;
    }
    await sim?.stop();
  }, 30_000);

  test("the image holds the binary, its libraries and the state directory, and no shell", () => {
    expect(stage.base).toStartWith("gcr.io/distroless/");
    expect(uid).not.toBe(0);
    expect(stage.volumes).toEqual(["/data"]);
    expect(stage.env.SVC_CONFIG_PATH).toStartWith("/data/");
    expect(existsSync(join(rootfs, stage.entrypoint[0]!))).toBe(true);
    expect(existsSync(join(rootfs, "bin/sh"))).toBe(false);
    expect(statSync(join(rootfs, "data")).uid).toBe(uid);
  });

  test("the gateway runs as the non-root user and serves a completion from the simulator", async () => {
    expect(gateway!.exitCode).toBeNull();
    const r = await fetch(`http://127.0.0.1:${port}/admin/keys`, {
      method: "POST",
      headers: { Authorization: `Bearer ${ADMIN_KEY}`, "Content-Type": "application/json" },
      body: JSON.stringify({ key: "sk-container" }),
    });
    expect(r.status).toBe(200);
    expect((await r.json()).config_writable).toBe(true);
    const acc = await fetch(`http://127.0.0.1:${port}/admin/accounts`, {
      method: "POST",
      headers: { Authorization: `Bearer ${ADMIN_KEY}`, "Content-Type": "application/json" },
      body: JSON.stringify({ email: "a@sim.test", password: "pw" }),
    });
    expect(acc.status).toBe(200);
    const chat = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: "Bearer sk-container", "Content-Type": "application/json" },
      body: JSON.stringify({ model: "core-v4-flash", messages: [{ role: "user", content: "from the container" }] }),
    });
    expect(chat.status).toBe(200);
    expect(JSON.stringify(await chat.json())).toContain("from the container");
    // State went to /data, written by the image's user, owner-only.
    const config = join(rootfs, stage.env.SVC_CONFIG_PATH!);
    expect(statSync(config).uid).toBe(uid);
    expect(statSync(config).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(config, "utf8")).keys).toEqual(["sk-container"]);
  });

  test("the HEALTHCHECK command exits 0 inside the image while the gateway is up", () => {
    const r = Bun.spawnSync(inImage(stage.healthcheck), { env: imageEnv({}) });
    expect(r.stdout.toString()).toContain("healthy");
    expect(r.exitCode).toBe(0);
  });

  test("SIGTERM to the gateway drains and exits 0; the usage file is in /data, the user's", async () => {
    const child = readFileSync(`/proc/${gateway!.pid}/task/${gateway!.pid}/children`, "utf8").trim().split(/\s+/)[0];
    expect(child).toBeTruthy();
    process.kill(Number(child), "SIGTERM");
    // unshare exits with the status of the process it forked.
    expect(await gateway!.exited).toBe(0);
    const usage = join(rootfs, stage.env.SVC_DATA_DIR!, "usage.json");
    expect(statSync(usage).uid).toBe(uid);
    expect(JSON.parse(readFileSync(usage, "utf8")).rows[0]).toMatchObject({ requests: 1 });
  });
});
