// Temporary directories a test run makes (the compiled binary, gateways' data directories, a container's root
// filesystem), removed when the run's process exits. They used to stay: ≈ 110 MB of binary per run, and on a
// developer's machine 400 runs filled the disk (46 GB of binaries, 40,000 data directories).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const made: string[] = [];

/**
 * A fresh directory under the system's temporary directory, removed after the test run (tests/setup/scratch.ts)
 * or, in a plain script, when the process exits (`bun test` does not emit "exit").
 */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (made.length === 0) process.once("exit", removeScratchDirs);
  made.push(dir);
  return dir;
}

export function removeScratchDirs(): void {
  for (const dir of made.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Exiting anyway: a directory that cannot go now is the system's to clean.
    }
  }
}
