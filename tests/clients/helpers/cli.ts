// How the suite runs each real, unmodified CLI: a temporary HOME (and working directory) per run holding
// only the settings written here, every update check, telemetry and error report switched off
// (docs/clients.md lists them), stdin closed, and a hard timeout so a hung client fails instead of hanging.
import { mkdirSync, writeFileSync } from "node:fs";
import { scratchDir } from "../../helpers/scratch";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN } from "./paths";
import { API_KEY } from "./stack";
import { proxyEnv, startTrap } from "./trap";

export type Cli = "claude" | "codex" | "gemini" | "opencode";

export interface CliOptions {
  model?: string;
  /** Also allow the CLI's own file tools (read, write, edit) without a prompt. */
  writes?: boolean;
  timeoutMs: number;
  /** Runs before the CLI starts, with its working directory (files to edit, core's scripted answers). */
  prepare?: (work: string) => void | Promise<void>;
}

type Command = { cmd: string[]; env: Record<string, string> };

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  home: string;
  /** The CLI's working directory (inside home). */
  work: string;
  /** Connections the client tried to open beyond loopback (helpers/trap.ts). */
  phoneHome: string[];
}

/** Environment a client sees: PATH and the temporary HOME only, nothing inherited from the developer. */
function baseEnv(home: string): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TMPDIR: tmpdir(), LANG: "C.UTF-8", TERM: "dumb", NO_COLOR: "1", CI: "1" };
}

export function claudeCommand(gw: string, home: string, prompt: string, { model, writes }: Omit<CliOptions, "timeoutMs">): Command {
  const cmd = [BIN.claude, "-p", prompt, "--output-format", "stream-json", "--verbose", "--allowedTools", writes ? "Bash(echo:*),Read,Write,Edit" : "Bash(echo:*)"];
  if (model) cmd.push("--model", model);
  return {
    cmd,
    env: {
      ...baseEnv(home),
      ANTHROPIC_BASE_URL: `${gw}/msgapi`,
      ANTHROPIC_API_KEY: API_KEY,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
    },
  };
}

export const CODEX_CONFIG = (gw: string) => `model_provider = "svc"
check_for_update_on_startup = false

[model_providers.svc]
name = "svc-gateway"
base_url = "${gw}/v1"
env_key = "SVC_GATEWAY_KEY"
wire_api = "responses"

[analytics]
enabled = false

[feedback]
enabled = false

[otel]
exporter = "none"

[features]
plugins = false
`;

export function codexCommand(gw: string, home: string, prompt: string, { model }: Omit<CliOptions, "timeoutMs">): Command {
  mkdirSync(join(home, ".codex"), { recursive: true });
  writeFileSync(join(home, ".codex", "config.toml"), CODEX_CONFIG(gw));
  const cmd = [BIN.codex, "exec", "--json", "--skip-git-repo-check"];
  if (model) cmd.push("-m", model);
  cmd.push(prompt);
  return { cmd, env: { ...baseEnv(home), CODEX_HOME: join(home, ".codex"), SVC_GATEWAY_KEY: API_KEY } };
}

export const GEMINI_SETTINGS = {
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  security: { auth: { selectedType: "gemini-api-key" } },
};

export function geminiCommand(gw: string, home: string, prompt: string, { model, writes }: Omit<CliOptions, "timeoutMs">): Command {
  mkdirSync(join(home, ".gemini"), { recursive: true });
  writeFileSync(join(home, ".gemini", "settings.json"), JSON.stringify(GEMINI_SETTINGS, null, 2));
  const cmd = ["node", BIN.gemini, "-p", prompt, "--output-format", "json", "--allowed-tools", "run_shell_command(echo)"];
  // Headless Gemini CLI offers write_file and replace to the model only when they need no confirmation.
  if (writes) for (const tool of ["read_file", "write_file", "replace"]) cmd.push("--allowed-tools", tool);
  if (model) cmd.push("-m", model);
  return { cmd, env: { ...baseEnv(home), GOOGLE_GEMINI_BASE_URL: gw, GEMINI_API_KEY: API_KEY, GEMINI_CLI_TRUST_WORKSPACE: "true" } };
}

/** opencode's models on the gateway: an OpenAI-compatible provider (chat completions), `svc/<model>`. */
export const OPENCODE_MODELS = ["core-v4-flash", "core-v4-pro"];

export const OPENCODE_CONFIG = (gw: string) => ({
  $schema: "https://opencode.ai/config.json",
  autoupdate: false,
  share: "disabled",
  model: "svc/core-v4-flash",
  small_model: "svc/core-v4-flash",
  provider: {
    svc: {
      npm: "@ai-sdk/openai-compatible",
      name: "svc-gateway",
      options: { baseURL: `${gw}/v1`, apiKey: "{env:SVC_GATEWAY_KEY}" },
      models: Object.fromEntries(OPENCODE_MODELS.map((m) => [m, { name: m, tool_call: true }])),
    },
  },
});

export function opencodeCommand(gw: string, home: string, prompt: string, { model, writes }: Omit<CliOptions, "timeoutMs">): Command {
  const dir = join(home, ".config", "opencode");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "opencode.json"), JSON.stringify(OPENCODE_CONFIG(gw), null, 2));
  // opencode installs @opencode-ai/plugin (for local plugins) into each config directory unless its
  // package.json and lock already list it; with none of them, it asks the npm registry on every run.
  // The suite loads no plugin, so the config directory says the dependency is there.
  const plugin = { dependencies: { "@opencode-ai/plugin": "*" } };
  writeFileSync(join(dir, "package.json"), JSON.stringify(plugin));
  writeFileSync(join(dir, "package-lock.json"), JSON.stringify({ lockfileVersion: 3, packages: { "": plugin } }));
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  const cmd = [BIN.opencode, "run", "--format", "json"];
  if (model) cmd.push("-m", `svc/${model}`);
  cmd.push(prompt);
  const permission = writes ? { bash: { "echo *": "allow" }, read: "allow", edit: "allow" } : { bash: { "echo *": "allow" } };
  return {
    cmd,
    env: {
      ...baseEnv(home),
      SVC_GATEWAY_KEY: API_KEY,
      OPENCODE_PERMISSION: JSON.stringify(permission),
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
      OPENCODE_DISABLE_SHARE: "1",
      OPENCODE_DISABLE_CLAUDE_CODE: "1",
    },
  };
}

const COMMANDS = { claude: claudeCommand, codex: codexCommand, gemini: geminiCommand, opencode: opencodeCommand };

export async function runCli(cli: Cli, gw: string, prompt: string, opts: CliOptions): Promise<CliRun> {
  // The CLI's home holds its settings with the gateway key: a scratch directory, removed after the run (issue 33).
  const home = scratchDir(`svc-clients-${cli}-`);
  const work = join(home, "work");
  mkdirSync(work);
  await opts.prepare?.(work);
  const { cmd, env } = COMMANDS[cli](gw, home, prompt, opts);
  const trap = startTrap();
  const proc = Bun.spawn(cmd, { cwd: work, env: { ...env, ...proxyEnv(trap) }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => proc.kill("SIGKILL"), opts.timeoutMs);
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  const code = await proc.exited;
  clearTimeout(timer);
  trap.stop();
  return { code, stdout, stderr, home, work, phoneHome: trap.attempts };
}

/** The answer text a CLI printed, from its own machine-readable output. */
export function answerOf(cli: Cli, stdout: string): string {
  if (cli === "gemini") {
    try {
      return String(JSON.parse(stdout.slice(stdout.indexOf("{"))).response ?? "");
    } catch {
      return "";
    }
  }
  const lines = stdout.split("\n").filter((l) => l.startsWith("{"));
  const events = lines.map((l) => {
    try {
      return JSON.parse(l);
    } catch {
      return null;
    }
  });
  if (cli === "claude") return events.filter((e) => e?.type === "result").map((e) => String(e.result ?? "")).join("\n");
  if (cli === "opencode") return events.filter((e) => e?.type === "text").map((e) => String(e.part?.text ?? "")).join("\n");
  return events.filter((e) => e?.type === "item.completed" && e.item?.type === "agent_message").map((e) => String(e.item.text ?? "")).join("\n");
}
