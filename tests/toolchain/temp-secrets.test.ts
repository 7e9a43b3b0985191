// Issue 33 item 3: `bun test` leaves no file holding a configured password under the system temp directory. The
// check itself runs after the whole run (tests/setup/scratch.ts); here it is shown to catch a leak — a test file
// run under `bun test` with that preload that leaves the password in os.tmpdir() fails its run — and to pass a
// test that keeps its secrets in its own scratch directory.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { scratchDir } from "../helpers/scratch";
import { filesContaining, LEAK_MARKER } from "../helpers/secret-marker";

const PRELOAD = resolve(import.meta.dir, "../setup/scratch.ts");
const MARKER_MODULE = resolve(import.meta.dir, "../helpers/secret-marker.ts");
const SCRATCH_MODULE = resolve(import.meta.dir, "../helpers/scratch.ts");

function runWithPreload(body: string): { code: number; out: string } {
  const dir = scratchDir("svc-temp-secrets-");
  const file = join(dir, "fixture.test.ts");
  writeFileSync(
    file,
    `import { test } from "bun:test";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LEAK_MARKER } from ${JSON.stringify(MARKER_MODULE)};
import { scratchDir } from ${JSON.stringify(SCRATCH_MODULE)};
${body}
`,
  );
  const r = Bun.spawnSync(["bun", "test", "--preload", PRELOAD, file], { cwd: dir, env: { PATH: process.env.PATH ?? "", HOME: dir } });
  return { code: r.exitCode, out: r.stdout.toString() + r.stderr.toString() };
}

describe("secrets under the system temp directory", () => {
  test("the scan finds the password in a nested file and nothing else", () => {
    const dir = scratchDir("svc-scan-");
    mkdirSync(join(dir, "a/b"), { recursive: true });
    writeFileSync(join(dir, "a/b/config.json"), JSON.stringify({ accounts: [{ email: "x@y", password: LEAK_MARKER }] }));
    writeFileSync(join(dir, "a/other.json"), JSON.stringify({ password: "something-else" }));
    expect(filesContaining(dir, LEAK_MARKER)).toEqual([join(dir, "a/b/config.json")]);
    // Written before the run's marker existed: not read (a file that old cannot hold it).
    expect(filesContaining(dir, LEAK_MARKER, Date.now() + 60_000)).toEqual([]);
  });

  test("a test that leaves its password in os.tmpdir() fails the run, naming the file", () => {
    const leaked = join(tmpdir(), `svc-leaky-fixture-${process.pid}.json`);
    try {
      const r = runWithPreload(`test("leaks", () => writeFileSync(${JSON.stringify(leaked)}, JSON.stringify({ password: LEAK_MARKER })));`);
      expect(existsSync(leaked)).toBe(true);
      expect(r.out).toContain("left its test password");
      expect(r.out).toContain(leaked);
      expect(r.code).not.toBe(0);
    } finally {
      rmSync(leaked, { force: true });
    }
  });

  test("a test that keeps the password in its scratch directory passes", () => {
    const r = runWithPreload(`test("keeps it", () => writeFileSync(join(scratchDir("svc-fixture-"), "config.json"), JSON.stringify({ password: LEAK_MARKER })));`);
    expect(r.out).not.toContain("left its test password");
    expect(r.code).toBe(0);
  });
});
