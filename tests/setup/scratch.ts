// After the whole run (a preload's top-level afterAll runs once, after every file): the temporary directories
// the helpers made go (tests/helpers/scratch.ts), then the system temp directory is searched for the run's test
// password (tests/helpers/secret-marker.ts, issue 33): a file that still holds it fails the run. The search
// first finds a canary it planted itself, so a scan that cannot see the temp directory fails instead of passing.
import { afterAll } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeScratchDirs } from "../helpers/scratch";
import { filesContaining, LEAK_MARKER } from "../helpers/secret-marker";

// Removing a run's scratch directories (compiled binaries, browser profiles) and walking the temp directory take
// seconds on a busy machine: far more than bun's 5 s default for a hook.
afterAll(() => {
  removeScratchDirs();
  const canaryDir = mkdtempSync(join(tmpdir(), "svc-leak-canary-"));
  const canary = join(canaryDir, "canary.json");
  writeFileSync(canary, JSON.stringify({ password: LEAK_MARKER }));
  let found: string[];
  try {
    found = filesContaining(tmpdir(), LEAK_MARKER);
  } finally {
    rmSync(canaryDir, { recursive: true, force: true });
  }
  if (!found.includes(canary)) throw new Error(`the temp-directory secret check did not find its own canary under ${tmpdir()}: the check is broken`);
  const leaks = found.filter((f) => f !== canary);
  if (leaks.length)
    throw new Error(`this test run left its test password in ${leaks.length} file(s) under ${tmpdir()}: ${leaks.join(", ")} — write such files under scratchDir() (tests/helpers/scratch.ts) and remove them`);
}, 300_000);
