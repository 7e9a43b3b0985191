// The container for real (issue 33 item 6), as far as this machine allows: no registry image can be pulled, so the
// image is built locally by podman from `FROM scratch` + the root filesystem the Dockerfile's final stage produces
// (assemble.ts), with that stage's own ENV, USER, WORKDIR, VOLUME, EXPOSE, HEALTHCHECK, ENTRYPOINT and CMD lines.
// It runs under podman with its port published: the HEALTHCHECK passes, the gateway runs as the non-root user,
// SIGTERM drains and exits 0, and /data survives the container (a new container on the same volume sees it).
// Runtime flags this sandbox needs, harmless elsewhere: runc (crun refuses cgroups v1/v2 "hybrid" mode) and
// file/process limits no higher than the current ones (the sandbox has no CAP_SYS_RESOURCE to raise them).
// Needs root and podman + runc: runs from .ci/container-check.sh with SVC_CONTAINER_TEST=1.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chownSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildBinary, freePort } from "../helpers/binary";
import { scratchDir } from "../helpers/scratch";
import { optInSuite, requireTool } from "../helpers/require-tool";
import { readFinalStage, type FinalStage } from "./dockerfile";
import { assembleRootfs, localContainerfile } from "./assemble";

const ROOT = resolve(import.meta.dir, "../..");
const OPTED_IN = optInSuite(import.meta.path, process.env.SVC_CONTAINER_TEST === "1", "needs root and podman; runs from .ci/container-check.sh (SVC_CONTAINER_TEST=1)");
const ENABLED =
  OPTED_IN &&
  requireTool(import.meta.path, "podman and runc", Bun.which("podman") !== null && Bun.which("runc") !== null, "podman or runc is not installed (apt-get install -y podman runc, or .ci/container-check.sh)");

const ADMIN_KEY = "podman-admin-key";
const IMAGE = `localhost/svc-gateway-test:${process.pid}`;
const RUNTIME_FLAGS = ["--runtime", "runc", "--ulimit", "nofile=4096:4096", "--ulimit", "nproc=4096:4096"];
let stage: FinalStage;
let volume: string;
let port: number;
let uid: number;
const containers: string[] = [];

function podman(args: string[]): { code: number; out: string; err: string } {
  const r = Bun.spawnSync(["podman", ...args], { stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, out: r.stdout.toString().trim(), err: r.stderr.toString().trim() };
}

/** Starts a container of the image on the shared /data volume, published on 127.0.0.1:port; waits for /readyz. */
async function runContainer(name: string): Promise<void> {
  containers.push(name);
  const r = podman(["run", "-d", "--name", name, ...RUNTIME_FLAGS, "-p", `127.0.0.1:${port}:5001`, "-e", `SVC_ADMIN_KEY=${ADMIN_KEY}`, "-v", `${volume}:/data`, IMAGE]);
  expect({ run: r.code, err: r.err.split("\n").filter((l) => !l.includes("systemd")).join("\n") }).toEqual({ run: 0, err: "" });
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return;
    } catch {}
    await Bun.sleep(100);
  }
  throw new Error(`container ${name} did not become ready: ${podman(["logs", name]).out}`);
}

const admin = (path: string, init: { method?: string; body?: unknown } = {}) =>
  fetch(`http://127.0.0.1:${port}${path}`, {
    method: init.method ?? "GET",
    headers: { Authorization: `Bearer ${ADMIN_KEY}`, "Content-Type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

describe.skipIf(!ENABLED)("the image under podman", () => {
  beforeAll(async () => {
    stage = readFinalStage(join(ROOT, "Dockerfile"));
    const context = scratchDir("svc-podman-ctx-");
    const rootfs = join(context, "rootfs");
    mkdirSync(rootfs);
    ({ uid } = assembleRootfs(rootfs, stage, await buildBinary()));
    writeFileSync(join(context, "Containerfile"), localContainerfile(readFileSync(join(ROOT, "Dockerfile"), "utf8")));
    // docker format: the OCI format has no HEALTHCHECK.
    const built = podman(["build", "--format", "docker", "-t", IMAGE, "-f", join(context, "Containerfile"), context]);
    if (built.code !== 0) throw new Error(`podman build failed: ${built.err}`);
    volume = scratchDir("svc-podman-data-");
    chownSync(volume, uid, uid);
    port = await freePort();
    await runContainer(`svc-gw-test-${process.pid}-a`);
  }, 300_000);

  afterAll(() => {
    for (const c of containers) podman(["rm", "-f", "-t", "0", c]);
    podman(["rmi", "-f", IMAGE]);
  }, 60_000);

  test("the Containerfile keeps the Dockerfile's runtime lines and replaces only its bases", () => {
    const text = localContainerfile(readFileSync(join(ROOT, "Dockerfile"), "utf8"));
    expect(text.startsWith("FROM scratch\nCOPY rootfs/ /\n")).toBe(true);
    for (const kw of ["ENV", "USER", "WORKDIR", "VOLUME", "HEALTHCHECK", "ENTRYPOINT", "CMD"]) expect(text).toMatch(new RegExp(`^${kw} `, "m"));
    expect(text).not.toMatch(/^COPY --from/m);
    expect(text).not.toContain("distroless");
  });

  test("the HEALTHCHECK passes while the gateway is up", () => {
    const r = podman(["healthcheck", "run", containers[0]!]);
    expect({ code: r.code, err: r.err.split("\n").filter((l) => !l.includes("systemd")).join("\n") }).toEqual({ code: 0, err: "" });
  });

  test("the gateway runs as the image's non-root user", () => {
    const pid = podman(["inspect", "--format", "{{.State.Pid}}", containers[0]!]).out;
    const uids = /^Uid:\s+(\d+)\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    expect(uid).not.toBe(0);
    expect([Number(uids?.[1]), Number(uids?.[2])]).toEqual([uid, uid]);
  });

  test("admin writes land in /data and a completion is served", async () => {
    const r = await admin("/admin/keys", { method: "POST", body: { key: "sk-container", name: "container" } });
    expect(r.status).toBe(200);
    expect((await r.json()).config_writable).toBe(true);
    const chat = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: "Bearer sk-container", "Content-Type": "application/json" },
      body: JSON.stringify({ model: "core-v4-flash", messages: [{ role: "user", content: "from podman" }] }),
    });
    expect(chat.status).toBe(200);
    expect(JSON.stringify(await chat.json())).toContain("from podman");
    const config = join(volume, "config.json");
    expect(statSync(config).uid).toBe(uid);
    expect(statSync(config).mode & 0o777).toBe(0o600);
  });

  test("podman stop drains and exits 0; a new container on the same volume keeps the state", async () => {
    const first = containers[0]!;
    expect(podman(["stop", "-t", "20", first]).code).toBe(0);
    expect(podman(["inspect", "--format", "{{.State.ExitCode}}", first]).out).toBe("0");
    const msgs = podman(["logs", first])
      .out.split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l).msg);
    expect(msgs).toContain("draining");
    expect(msgs).toContain("stopped");
    podman(["rm", "-f", first]);
    await runContainer(`svc-gw-test-${process.pid}-b`);
    const config = (await (await admin("/admin/config")).json()) as { api_keys: { key: string }[] };
    expect(config.api_keys.map((k) => k.key)).toContain("sk-container");
    expect(statSync(join(volume, "usage.json")).uid).toBe(uid);
  }, 120_000);
});
