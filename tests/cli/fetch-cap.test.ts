// The re-exec that lifts Bun's outgoing-request cap (issue 17 item 6): the plan, and execve itself on a real process;
// the lift is checked end to end by tests/e2e/many-streams.test.ts through the compiled binary.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { execInPlace, FETCH_CAP_ENV, FETCH_CAP_MAX, fetchCapPlan, type Execve } from "../../src/cli/fetch-cap";
import { scratchDir } from "../helpers/scratch";

describe("fetchCapPlan", () => {
  test("a compiled binary restarts itself with its own arguments, without the embedded entry path", () => {
    const plan = fetchCapPlan({
      env: { PATH: "/bin", PORT: "5001" },
      execPath: "/opt/svc-gateway",
      execArgv: [],
      argv: ["bun", "/$bunfs/root/svc-gateway", "serve", "--port", "9"],
      main: "/$bunfs/root/svc-gateway",
    });
    expect(plan).toEqual({
      path: "/opt/svc-gateway",
      argv: ["/opt/svc-gateway", "serve", "--port", "9"],
      env: { PATH: "/bin", PORT: "5001", [FETCH_CAP_ENV]: String(FETCH_CAP_MAX) },
    });
  });

  test("under bun, the runtime flags and the script come back", () => {
    const plan = fetchCapPlan({ env: {}, execPath: "/usr/bin/bun", execArgv: ["--smol"], argv: ["/usr/bin/bun", "/app/src/main.ts", "demo"], main: "/app/src/main.ts" });
    expect(plan?.argv).toEqual(["/usr/bin/bun", "--smol", "/app/src/main.ts", "demo"]);
  });

  test("an operator's own setting is kept, which is also what stops the restarted process restarting again", () => {
    expect(fetchCapPlan({ env: { [FETCH_CAP_ENV]: "512" }, execPath: "/x", execArgv: [], argv: ["bun", "/$bunfs/root/x"], main: "/$bunfs/root/x" })).toBeNull();
  });
});

describe("execInPlace", () => {
  const plan = { path: "/usr/bin/x", argv: ["/usr/bin/x", "serve", "--port", "1"], env: { A: "1", [FETCH_CAP_ENV]: String(FETCH_CAP_MAX) } };

  test("hands the plan to process.execve unchanged", () => {
    const calls: unknown[][] = [];
    const exec: Execve = (...args) => void calls.push(args);
    execInPlace(plan, exec);
    expect(calls).toEqual([[plan.path, plan.argv, plan.env]]);
  });

  test("says why when it cannot: no process.execve, or execve refused", () => {
    expect(execInPlace(plan, null)).toContain("no process.execve");
    const refused: Execve = () => {
      throw new Error("ENOENT: no such file");
    };
    expect(execInPlace(plan, refused)).toBe("execve failed for /usr/bin/x: ENOENT: no such file");
  });

  test("really replaces the process: same pid, the plan's arguments and environment", async () => {
    const dir = scratchDir("svc-fetch-cap-");
    const script = join(dir, "reexec.ts");
    const module = resolve(import.meta.dir, "../../src/cli/fetch-cap.ts");
    writeFileSync(
      script,
      `import { execInPlace } from ${JSON.stringify(module)};
if (process.env.STAGE === "after") {
  console.log(JSON.stringify({ pid: process.pid, args: process.argv.slice(2), cap: process.env.${FETCH_CAP_ENV} }));
  process.exit(0);
}
console.log(JSON.stringify({ pid: process.pid }));
const why = execInPlace({ path: process.execPath, argv: [process.execPath, import.meta.path, "again"], env: { PATH: process.env.PATH ?? "", STAGE: "after", ${FETCH_CAP_ENV}: "${FETCH_CAP_MAX}" } });
console.log(JSON.stringify({ why }));
`,
    );
    const proc = Bun.spawn([process.execPath, script], { stdout: "pipe", stderr: "pipe" });
    const lines = (await new Response(proc.stdout).text()).trim().split("\n").map((l) => JSON.parse(l));
    expect(await proc.exited).toBe(0);
    expect(lines).toEqual([{ pid: proc.pid }, { pid: proc.pid, args: ["again"], cap: String(FETCH_CAP_MAX) }]);
    // Bun's "process.execve is an experimental feature" warning is not passed on to an operator's log.
    expect(await new Response(proc.stderr).text()).toBe("");
  });
});
