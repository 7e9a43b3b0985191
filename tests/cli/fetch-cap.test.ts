// The re-exec plan that lifts Bun's outgoing-request cap (issue 17 item 6); the lift itself is checked end to end
// by tests/e2e/many-streams.test.ts through the compiled binary.
import { describe, expect, test } from "bun:test";
import { FETCH_CAP_ENV, FETCH_CAP_MAX, fetchCapPlan } from "../../src/cli/fetch-cap";

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
