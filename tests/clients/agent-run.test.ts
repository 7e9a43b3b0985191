// Issue 32: `svc-gateway run -- <cli>` with the real pinned CLIs (tests/clients/package.json) against the compiled
// gateway and the simulator: nothing but `run` points the CLI at the gateway (a temporary HOME with no settings of
// its own), and the answer comes back from core through it. `connect` prints the same settings (tests/cli).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { answerOf, type Cli } from "./helpers/cli";
import { announceSkip, CLIENT_MODULES, clientsInstalled } from "./helpers/paths";
import { API_KEY, startStack, type Stack } from "./helpers/stack";
import { proxyEnv, startTrap } from "./helpers/trap";

announceSkip("svc-gateway run with the agent CLIs");
const ROOT = resolve(import.meta.dir, "../..");
// Outside the repository (an agent in a checkout scans it) and not under /tmp (Gemini CLI checks every folder
// above its settings file for group/world write access): the user's own cache.
const HOMES = join(homedir(), ".cache", "svc-gateway-run-tests");

let stack: Stack;
beforeAll(async () => {
  if (clientsInstalled) stack = await startStack(3);
}, 180_000);
afterAll(async () => {
  await stack?.stop();
  rmSync(HOMES, { recursive: true, force: true });
});

/** The flags each CLI needs to answer once, non-interactively, in machine-readable form (as helpers/cli.ts). */
const ARGS: Record<Cli, (prompt: string) => string[]> = {
  claude: (p) => ["-p", p, "--output-format", "stream-json", "--verbose"],
  codex: (p) => ["exec", "--json", "--skip-git-repo-check", p],
  gemini: (p) => ["-p", p, "--output-format", "json"],
  opencode: (p) => ["run", "--format", "json", p],
};

/**
 * opencode installs its plugin package into its config folder on start unless one is listed there; this suite
 * reaches nothing but loopback, so the folder says it is there (as helpers/cli.ts does for the file cases).
 */
function opencodePluginStub(home: string): void {
  const dir = join(home, ".config", "opencode");
  const plugin = { dependencies: { "@opencode-ai/plugin": "*" } };
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify(plugin));
  writeFileSync(join(dir, "package-lock.json"), JSON.stringify({ lockfileVersion: 3, packages: { "": plugin } }));
}

describe.skipIf(!clientsInstalled)("svc-gateway run with the pinned agent CLIs", () => {
  for (const cli of ["claude", "codex", "gemini", "opencode"] as Cli[]) {
    test(
      `${cli}: run points it at the gateway and the answer comes from core`,
      async () => {
        // Not under /tmp: Gemini CLI checks every folder above its settings file for group/world write access.
        mkdirSync(HOMES, { recursive: true, mode: 0o755 });
        const home = mkdtempSync(join(HOMES, `svc-run-${cli}-`));
        const work = join(home, "work");
        mkdirSync(work);
        if (cli === "opencode") opencodePluginStub(home);
        const marker = `svc-run-${cli}`;
        const trap = startTrap();
        const env: Record<string, string> = {
          PATH: `${join(CLIENT_MODULES, ".bin")}:${process.env.PATH ?? ""}`,
          HOME: home,
          TMPDIR: tmpdir(),
          LANG: "C.UTF-8",
          TERM: "dumb",
          NO_COLOR: "1",
          CI: "1",
          DISABLE_AUTOUPDATER: "1",
          DISABLE_TELEMETRY: "1",
          DISABLE_ERROR_REPORTING: "1",
          GEMINI_CLI_TRUST_WORKSPACE: "true",
          ...proxyEnv(trap),
        };
        const proc = Bun.spawn(["bun", join(ROOT, "src/main.ts"), "run", "--url", stack.gw.url, "--key", API_KEY, "--", cli, ...ARGS[cli](`What is the capital of France? ${marker}`)], {
          cwd: work,
          env,
          stdin: "ignore",
          stdout: "pipe",
          stderr: "pipe",
        });
        // TERM first: `run` passes it to the CLI, so no agent is left behind; KILL if that did not end it.
        const timer = setTimeout(() => {
          proc.kill("SIGTERM");
          setTimeout(() => proc.kill("SIGKILL"), 5000);
        }, 150_000);
        const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
        const code = await proc.exited;
        clearTimeout(timer);
        trap.stop();
        if (code !== 0) console.error(`${cli} stderr:\n${stderr.slice(-2000)}`);
        expect(code).toBe(0);
        expect(stack.prompts().some((p) => p.includes(marker))).toBe(true);
        expect(answerOf(cli, stdout)).toContain("core simulator");
      },
      180_000,
    );
  }
});
