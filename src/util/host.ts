// The host's CPU count, name and temporary directory without importing node:os at start: that module alone adds
// ≈ 2 MB to the idle RSS of a compiled server (measured on a minimal Elysia server, issue 35), and a start needs
// only the CPU count (the PoW workers' default) and the host name (the request log's `instance`).
import { readFileSync } from "node:fs";

/** The CPUs this process may run on (its scheduler affinity): what node:os availableParallelism() returns. */
export function availableCpus(): number {
  return navigator.hardwareConcurrency || 1;
}

/** gethostname(): on Linux the kernel's own answer for this UTS namespace, elsewhere node:os. */
export function hostName(): string {
  if (process.platform === "linux") {
    try {
      const name = readFileSync("/proc/sys/kernel/hostname", "utf8").trim();
      if (name) return name;
    } catch {
      // No /proc (a minimal sandbox): node:os below.
    }
  }
  return osModule().hostname();
}

/** node:os tmpdir(), loaded when a file upload first needs it. */
export function tempDir(): string {
  return osModule().tmpdir();
}

function osModule(): typeof import("node:os") {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("node:os") as typeof import("node:os");
}
