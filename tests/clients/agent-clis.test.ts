// Issue 16 conformance: the real Claude Code, Codex, Gemini CLI and opencode (pinned in tests/clients/package.json)
// against the compiled gateway and the core simulator, all on loopback. For each CLI, with its default
// model and with core-v4-pro: a plain question; a streamed answer after 20 s of core silence (the gateway
// writes its own keep-alives: the opening one and one at 15 s); a tool loop in which the CLI runs
// `echo <marker>` and the command's output reaches core's next prompt. The runs are concurrent: the slow
// case waits 20 s and Gemini CLI's default model first tries its model router several times.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { answerOf, runCli, type Cli } from "./helpers/cli";
import { announceSkip, clientsInstalled } from "./helpers/paths";
import { queueStatus, startStack, toolResults, type Stack } from "./helpers/stack";

announceSkip("the agent CLI conformance suite");

let stack: Stack;
beforeAll(async () => {
  if (clientsInstalled) stack = await startStack();
}, 180_000);
afterAll(async () => {
  if (stack) {
    // Every CLI run is over (answered, failed, or the CLI went away): the pool is idle again.
    let status = await queueStatus(stack.gw.url);
    for (let i = 0; i < 50 && (status.in_use !== 0 || status.waiting !== 0); i++) {
      await Bun.sleep(200);
      status = await queueStatus(stack.gw.url);
    }
    expect(status).toMatchObject({ in_use: 0, waiting: 0 });
  }
  await stack?.stop();
});

const MODELS: (string | undefined)[] = [undefined, "core-v4-pro"];
const SHELL_TOOL: Record<Cli, string> = { claude: "Bash", codex: "exec_command", gemini: "run_shell_command", opencode: "bash" };
/** Text only in main-agent prompts, not in a CLI's side calls (Gemini CLI's router, Claude Code's titles): its system prompt or tool list. */
const MAIN_PROMPT: Record<Cli, string> = { claude: "Tool: Bash", codex: "Codex", gemini: "You are Gemini CLI", opencode: "You are opencode" };

/**
 * The tool-loop request. Codex's default model works in code mode: no `tools`, one custom `exec` tool (in the
 * `functions` namespace of an `additional_tools` input item) that runs JavaScript calling `tools.exec_command`;
 * the user spells the script out, as the other cases spell out the command.
 */
function toolPrompt(cli: Cli, model: string | undefined, tag: string): string {
  if (cli === "codex" && model === undefined)
    return `Use the functions__exec tool to run \`text((await tools.exec_command({ cmd: "echo svc-tool-${tag}" })).output)\``;
  return `Use the ${SHELL_TOOL[cli]} tool to run \`echo svc-tool-${tag}\``;
}

const TIMEOUT = 600_000;

for (const cli of ["claude", "codex", "gemini", "opencode"] as Cli[]) {
  for (const model of MODELS) {
    const label = `${cli} ${model ?? "(default model)"}`;
    const tag = `${cli}-${model ?? "default"}`.replace(/[^a-z0-9-]/gi, "");
    const cases: [string, string, (stack: Stack, out: string, marker: string) => void][] = [
      [
        "plain question",
        `What is the capital of France? svc-plain-${tag}`,
        (s, out, marker) => {
          expect(s.prompts().some((p) => p.includes(marker))).toBe(true);
          expect(out).toContain("core simulator");
        },
      ],
      [
        "streamed answer after 20 s of core silence (keep-alives)",
        `[[sim:slow-tokens first_token_ms=20000 keepalive_ms=600000 delay_ms=0 snapshot_first=true]] Say hello. svc-slow-${tag}`,
        (s, out, marker) => {
          expect(out).toContain("core simulator");
          // The stream was not lost: the CLI did not send its main request again.
          expect(s.prompts().filter((p) => p.includes(marker) && p.includes(MAIN_PROMPT[cli])).length).toBe(1);
        },
      ],
      [
        "tool loop runs `echo` and its output reaches core",
        toolPrompt(cli, model, tag),
        (s, out, marker) => {
          const results = s.prompts().flatMap(toolResults);
          expect(results.some((r) => r.includes(marker) && !r.includes(`echo ${marker}`))).toBe(true);
          expect(out).toContain("The tool returned");
        },
      ],
    ];
    describe(label, () => {
      for (const [name, prompt, check] of cases) {
        const marker = /svc-[a-z]+-[\w-]+/.exec(prompt.replace(/`/g, ""))![0];
        const body = async () => {
          const run = await runCli(cli, stack.gw.url, prompt, { model, timeoutMs: TIMEOUT - 20_000 });
          const out = answerOf(cli, run.stdout);
          const context = { exit: run.code, answer: out.slice(0, 300), stderr: run.stderr.slice(-1500) };
          expect({ ...context, exit: run.code }).toEqual({ ...context, exit: 0 });
          expect(run.phoneHome).toEqual([]);
          check(stack, out, marker);
        };
        // Without the pinned clients (a dev machine that never ran .ci/clients.sh) the cases are listed as
        // skipped, with the reason printed once; CI installs them and runs this file on the compiled binary.
        if (!clientsInstalled) test.skip(name, () => {});
        else test.concurrent(name, body, TIMEOUT);
      }
    });
  }
}
