// Issue 33 item 4: a suite whose tool is missing fails under CI=true and, elsewhere, skips saying why. Checked by
// running a small test file that needs a tool nobody has, under `bun test`, with and without CI=true.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { scratchDir } from "../helpers/scratch";

const HELPER = resolve(import.meta.dir, "../helpers/require-tool.ts");

function runFixture(ci: string | undefined): { code: number; out: string } {
  const dir = scratchDir("svc-require-tool-");
  const file = join(dir, "needs-tool.test.ts");
  writeFileSync(
    file,
    `import { describe, test, expect } from "bun:test";
import { requireTool } from ${JSON.stringify(HELPER)};
const HAVE = requireTool(import.meta.path, "frobnicator", false, "frobnicator is not installed (apt-get install -y frobnicator)");
describe.skipIf(!HAVE)("needs the frobnicator", () => { test("runs it", () => { throw new Error("ran without the frobnicator"); }); });
test("an unrelated test still runs and sees the tool missing", () => expect(HAVE).toBe(false));
`,
  );
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: dir };
  if (ci !== undefined) env.CI = ci;
  const r = Bun.spawnSync(["bun", "test", file], { cwd: dir, env });
  return { code: r.exitCode, out: r.stdout.toString() + r.stderr.toString() };
}

describe("requireTool", () => {
  test("outside CI the suite is skipped and the reason printed; the run passes", () => {
    const r = runFixture(undefined);
    expect(r.out).toContain("[skip] ");
    expect(r.out).toContain("frobnicator is not installed (apt-get install -y frobnicator)");
    expect(r.code).toBe(0);
  });

  test.each(["true", "1"])("under CI=%s the missing tool is a failing test that names it", (ci) => {
    const r = runFixture(ci);
    expect(r.code).not.toBe(0);
    expect(r.out).toContain("(fail) frobnicator is installed");
    expect(r.out).toContain("frobnicator is not installed (apt-get install -y frobnicator)");
  });
});
