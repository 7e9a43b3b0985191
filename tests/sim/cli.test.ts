// `svc-gateway sim`: the standalone simulator prints its URL, answers, and stops on SIGTERM.
import { expect, test } from "bun:test";

test("runSimCli prints the URL, serves core's protocol, and exits on SIGTERM", async () => {
  const script = `import { runSimCli } from "${import.meta.dir}/../../src/sim/cli"; await runSimCli(process.argv.slice(2));`;
  const proc = Bun.spawn(["bun", "-e", script, "--", "--port", "0", "--difficulty", "10", "--seed", "3"], { stdout: "pipe", stderr: "pipe" });
  const reader = proc.stdout.getReader();
  let out = "";
  while (!out.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    out += new TextDecoder().decode(value);
  }
  const url = /http:\/\/127\.0\.0\.1:\d+/.exec(out)![0];
  expect(out).toContain("seed 3");
  const login = await (await fetch(`${url}/api/v0/users/login`, { method: "POST", body: JSON.stringify({ email: "any@x.y", password: "p" }) })).json();
  expect(login.data.biz_data.user.token).toMatch(/^sim-/);
  proc.kill("SIGTERM");
  expect(await proc.exited).toBe(0);
}, 15000);
