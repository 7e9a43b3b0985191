// `bun run release` for every target (or SVC_RELEASE_TARGETS, which must hold linux-x64 and linux-arm64): each file's format from its headers, SHA256SUMS,
// the host binary and the linux-arm64 binary (under qemu-user, Debian's qemu-user and libc6-arm64-cross) each
// report their version and answer /healthz. Slow and needs those packages, so it runs in its own CI step
// (.ci/release-check.sh) with SVC_RELEASE_TEST=1, not in the default `bun test`.
import { beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { release, releaseName, selectTargets, type ReleaseTarget } from "../../scripts/release";
import { VERSION } from "../../src/version";
import { exeFormat, type ExeFormat } from "../helpers/exe-format";
import { freePort } from "../helpers/binary";
import { scratchDir } from "../helpers/scratch";
import { optInSuite, requireTool } from "../helpers/require-tool";

const ARM_SYSROOT = "/usr/aarch64-linux-gnu";
const OPTED_IN = optInSuite(import.meta.path, process.env.SVC_RELEASE_TEST === "1", "builds every release target; runs from .ci/release-check.sh (SVC_RELEASE_TEST=1)");
// Once enabled, qemu is a tool like any other: missing under CI=true fails, elsewhere skips with the reason.
const ENABLED =
  OPTED_IN &&
  requireTool(
    import.meta.path,
    "qemu-user and libc6-arm64-cross",
    Bun.which("qemu-aarch64") !== null && existsSync(`${ARM_SYSROOT}/lib/ld-linux-aarch64.so.1`),
    "qemu-aarch64 or the arm64 C library is missing (apt-get install -y qemu-user libc6-arm64-cross, or .ci/install-ops.sh)",
  );

const EXPECTED: Record<string, ExeFormat> = {
  "linux-x64": { kind: "elf", machine: "x86-64", interpreter: "/lib64/ld-linux-x86-64.so.2" },
  "linux-x64-musl": { kind: "elf", machine: "x86-64", interpreter: "/lib/ld-musl-x86_64.so.1" },
  "linux-arm64": { kind: "elf", machine: "aarch64", interpreter: "/lib/ld-linux-aarch64.so.1" },
  "darwin-arm64": { kind: "macho", cpu: "arm64" },
  "darwin-x64": { kind: "macho", cpu: "x86_64" },
  "windows-x64": { kind: "pe", machine: "x86-64", pe32plus: true },
};

let outDir: string;
let targets: ReleaseTarget[];

/** Starts the binary in demo mode (built-in simulator) and asks /healthz and one chat completion. */
async function serveAndProbe(cmd: string[]): Promise<{ health: number; version: string; chat: number }> {
  const version = Bun.spawnSync([...cmd, "--version"]).stdout.toString().trim();
  const port = await freePort();
  const dir = scratchDir("svc-release-run-");
  const proc = Bun.spawn(cmd, {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", PORT: String(port), SVC_HOST: "127.0.0.1", SVC_ADMIN_KEY: "release-admin", SVC_CONFIG_PATH: join(dir, "config.json"), LOG_LEVEL: "warn" },
    stdout: "ignore",
    stderr: "ignore",
  });
  let health = 0;
  let chat = 0;
  try {
    // Under qemu the start takes seconds: wait for it (a readiness wait, not a speed assertion).
    for (let i = 0; i < 1200 && proc.exitCode === null; i++) {
      try {
        health = (await fetch(`http://127.0.0.1:${port}/healthz`)).status;
        break;
      } catch {
        await Bun.sleep(100);
      }
    }
    // A completion runs the PoW worker, an entry point of its own inside the binary.
    if (health === 200)
      chat = (
        await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
          method: "POST",
          headers: { Authorization: "Bearer any-key", "Content-Type": "application/json" },
          body: JSON.stringify({ model: "core-v4-flash", messages: [{ role: "user", content: "release check" }] }),
        })
      ).status;
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
  }
  return { health, version, chat };
}

describe.skipIf(!ENABLED)("release binaries", () => {
  beforeAll(async () => {
    outDir = scratchDir("svc-release-");
    targets = selectTargets(process.env.SVC_RELEASE_TARGETS);
    await release({ outDir, targets });
  }, 900_000);

  test("every file has its target's format, and SHA256SUMS lists each with its digest", () => {
    const sums = readFileSync(join(outDir, "SHA256SUMS"), "utf8").trimEnd().split("\n");
    expect(sums).toHaveLength(targets.length);
    for (const t of targets) {
      const name = releaseName(t);
      expect(exeFormat(join(outDir, name))).toEqual(EXPECTED[t.name]!);
      const digest = createHash("sha256").update(readFileSync(join(outDir, name))).digest("hex");
      expect(sums).toContain(`${digest}  ${name}`);
    }
  });

  test("the linux-x64 binary reports its version, answers /healthz and a chat completion", async () => {
    const host = targets.find((t) => t.name === "linux-x64");
    expect(host).toBeDefined();
    const r = await serveAndProbe([join(outDir, releaseName(host!))]);
    expect(r.version).toBe(`svc-gateway ${VERSION}`);
    expect(r.health).toBe(200);
    expect(r.chat).toBe(200);
  }, 120_000);

  test("the linux-arm64 binary, run under qemu-user, reports its version, answers /healthz and a chat completion", async () => {
    const arm = targets.find((t) => t.name === "linux-arm64");
    expect(arm).toBeDefined();
    expect(existsSync(`${ARM_SYSROOT}/lib/ld-linux-aarch64.so.1`)).toBe(true);
    const r = await serveAndProbe(["qemu-aarch64", "-L", ARM_SYSROOT, join(outDir, releaseName(arm!))]);
    expect(r.version).toBe(`svc-gateway ${VERSION}`);
    expect(r.health).toBe(200);
    expect(r.chat).toBe(200);
  }, 300_000);
});
