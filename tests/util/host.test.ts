// util/host.ts answers what node:os would, without importing it at start (issue 35: ≈ 2 MB of idle RSS).
import { expect, test } from "bun:test";
import { availableParallelism, hostname, tmpdir } from "node:os";
import { availableCpus, hostName, tempDir } from "../../src/util/host";

test("the CPU count is node:os availableParallelism(), the scheduler affinity's", () => {
  expect(availableCpus()).toBe(availableParallelism());
});

test("the host name is node:os hostname(), and the temporary directory its tmpdir()", () => {
  expect(hostName()).toBe(hostname());
  expect(tempDir()).toBe(tmpdir());
});

test("under an affinity of one CPU, both count one", async () => {
  const taskset = Bun.which("taskset");
  if (!taskset) {
    // util-linux's taskset is on every Debian image CI uses; a machine without it cannot pin a process.
    if (process.env.CI === "true") throw new Error("taskset (util-linux) is missing");
    return;
  }
  const script = `import { availableCpus } from ${JSON.stringify(require.resolve("../../src/util/host"))}; import { availableParallelism } from "node:os"; console.log(availableCpus(), availableParallelism());`;
  const p = Bun.spawn([taskset, "-c", "0", process.execPath, "-e", script], { stdout: "pipe", stderr: "inherit" });
  expect((await new Response(p.stdout).text()).trim()).toBe("1 1");
  expect(await p.exited).toBe(0);
});
