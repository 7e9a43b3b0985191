// What each agent CLI needs to talk to this gateway (issue 32; docs/clients.md): environment variables and,
// where the CLI reads its endpoint only from a file, a settings file in a folder of our own — never the
// user's own settings. `svc-gateway run` applies them to a child process; `svc-gateway connect` prints them.
import { join } from "node:path";

export const AGENT_CLIS = ["claude", "codex", "gemini", "opencode"] as const;
export type AgentCli = (typeof AGENT_CLIS)[number];

export interface AgentSettings {
  env: Record<string, string>;
  /** Files to write, by name inside the settings folder. */
  files: Record<string, string>;
  /** Environment variables whose value is a file of `files` (set to its path once the folder is known). */
  fileEnv: Record<string, string>;
}

export function isAgentCli(s: string): s is AgentCli {
  return (AGENT_CLIS as readonly string[]).includes(s);
}

const tomlString = (s: string) => JSON.stringify(s);

/** The settings of `cli` for a gateway at `url` (no trailing slash) with the API key `key`. */
export function agentSettings(cli: AgentCli, url: string, key: string): AgentSettings {
  const base = url.replace(/\/+$/, "");
  switch (cli) {
    case "claude":
      // The messages surface; no settings file needed. Non-essential traffic (updates, telemetry) stays off.
      return { env: { ANTHROPIC_BASE_URL: `${base}/msgapi`, ANTHROPIC_API_KEY: key, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" }, files: {}, fileEnv: {} };
    case "codex":
      // Codex takes a custom provider only from config.toml: a CODEX_HOME of our own holds one.
      return {
        env: { SVC_GATEWAY_KEY: key },
        files: {
          "config.toml": [
            'model_provider = "svc"',
            "check_for_update_on_startup = false",
            "",
            "[model_providers.svc]",
            'name = "svc-gateway"',
            `base_url = ${tomlString(`${base}/v1`)}`,
            'env_key = "SVC_GATEWAY_KEY"',
            'wire_api = "responses"',
            "",
            "[analytics]",
            "enabled = false",
            "",
            "[feedback]",
            "enabled = false",
            "",
            "[otel]",
            'exporter = "none"',
            "",
          ].join("\n"),
        },
        fileEnv: { CODEX_HOME: "" },
      };
    case "gemini":
      // System settings win over the user's: they select API-key auth without touching ~/.gemini.
      return {
        env: { GOOGLE_GEMINI_BASE_URL: base, GEMINI_API_KEY: key },
        files: { "settings.json": `${JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } }, general: { enableAutoUpdate: false, enableAutoUpdateNotification: false }, privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false } }, null, 2)}\n` },
        fileEnv: { GEMINI_CLI_SYSTEM_SETTINGS_PATH: "settings.json" },
      };
    case "opencode":
      // An OpenAI-compatible provider pointing at the chat surface; the key comes from the environment.
      // Update checks, the model catalogue download and sharing are off: only the gateway is contacted.
      return {
        env: { SVC_GATEWAY_KEY: key, OPENCODE_DISABLE_AUTOUPDATE: "1", OPENCODE_DISABLE_MODELS_FETCH: "1", OPENCODE_DISABLE_SHARE: "1" },
        files: {
          "opencode.json": `${JSON.stringify(
            {
              $schema: "https://opencode.ai/config.json",
              autoupdate: false,
              share: "disabled",
              provider: {
                svc: {
                  npm: "@ai-sdk/openai-compatible",
                  name: "svc-gateway",
                  options: { baseURL: `${base}/v1`, apiKey: "{env:SVC_GATEWAY_KEY}" },
                  models: { "core-v4-flash": { name: "core-v4-flash", tool_call: true }, "core-v4-pro": { name: "core-v4-pro", tool_call: true } },
                },
              },
              model: "svc/core-v4-pro",
            },
            null,
            2,
          )}\n`,
        },
        fileEnv: { OPENCODE_CONFIG: "opencode.json" },
      };
  }
}

/** The environment with file variables pointing into `dir` (an empty name = the folder itself). */
export function resolvedEnv(s: AgentSettings, dir: string): Record<string, string> {
  const out = { ...s.env };
  for (const [k, f] of Object.entries(s.fileEnv)) out[k] = f ? join(dir, f) : dir;
  return out;
}

const shellQuote = (v: string) => `'${v.replace(/'/g, `'\\''`)}'`;

/** Shell lines that write the files under `dir` and export the variables: `eval "$(svc-gateway connect …)"`. */
export function shellScript(cli: AgentCli, s: AgentSettings, dir: string): string {
  const lines = [`# svc-gateway settings for ${cli}`];
  if (Object.keys(s.files).length) lines.push(`mkdir -p ${shellQuote(dir)}`);
  for (const [name, content] of Object.entries(s.files)) lines.push(`cat > ${shellQuote(join(dir, name))} <<'SVC_GATEWAY_EOF'`, content.replace(/\n$/, ""), "SVC_GATEWAY_EOF");
  for (const [k, v] of Object.entries(resolvedEnv(s, dir))) lines.push(`export ${k}=${shellQuote(v)}`);
  return `${lines.join("\n")}\n`;
}
