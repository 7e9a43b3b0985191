// `svc-gateway run [--url U] [--key K] -- <claude|codex|gemini|opencode> [args…]`: runs the agent CLI pointed at
// this gateway (environment, and a temporary settings folder where the CLI needs a file), with the terminal
// handed over, and exits with its exit code. `svc-gateway connect <cli> [--url U] [--key K]` prints the same
// settings as shell lines (files under ~/.config/svc-gateway/<cli>) for `eval "$(svc-gateway connect codex)"`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { AGENT_CLIS, agentSettings, isAgentCli, resolvedEnv, shellScript, type AgentCli } from "./agents";
import { loadConfig } from "../config/load";

interface Target {
  url: string;
  key: string;
}

const USAGE = `usage: svc-gateway run [--url URL] [--key KEY] -- <${AGENT_CLIS.join("|")}> [args…]
       svc-gateway connect <${AGENT_CLIS.join("|")}> [--url URL] [--key KEY]
The gateway URL defaults to SVC_GATEWAY_URL, else http://127.0.0.1:$PORT (5001); the key to SVC_GATEWAY_KEY,
else the first API key of the local configuration.
`;

/**
 * The options and the CLI's name. `strict` (run): everything after the name, or after `--`, belongs to the CLI.
 * Otherwise (connect) options may come on either side of the name.
 */
function parse(argv: string[], strict: boolean): { url?: string; key?: string; cli?: string; rest: string[] } {
  const out: { url?: string; key?: string; cli?: string; rest: string[] } = { rest: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--" && !out.cli) {
      out.cli = argv[i + 1];
      out.rest = argv.slice(i + 2);
      return out;
    }
    const [flag, inline] = a.startsWith("--") && a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined];
    if (flag === "--url" || flag === "--key") {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      out[flag === "--url" ? "url" : "key"] = v;
    } else if (!out.cli && !a.startsWith("-")) {
      out.cli = a;
      if (strict) {
        out.rest = argv.slice(i + 1);
        return out;
      }
    } else throw new Error(`unknown argument ${JSON.stringify(a)}`);
  }
  return out;
}

async function target(o: { url?: string; key?: string }, env: Record<string, string | undefined>): Promise<Target> {
  const url = o.url ?? env.SVC_GATEWAY_URL ?? `http://127.0.0.1:${env.PORT || 5001}`;
  let key = o.key ?? env.SVC_GATEWAY_KEY;
  if (!key) {
    // On the gateway's own machine the configuration knows a key.
    try {
      const c = (await loadConfig({ env })).config;
      key = c.api_keys?.[0]?.key ?? c.keys?.[0];
    } catch {}
  }
  if (!key) throw new Error("no API key: pass --key, set SVC_GATEWAY_KEY, or add an API key to the configuration");
  return { url, key };
}

function cliOf(name: string | undefined): AgentCli {
  if (!name || !isAgentCli(name)) throw new Error(`name one of ${AGENT_CLIS.join(", ")}${name ? ` (not ${JSON.stringify(name)})` : ""}`);
  return name;
}

export async function runAgent(argv: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  let parsed;
  let t: Target;
  let cli: AgentCli;
  try {
    parsed = parse(argv, true);
    cli = cliOf(parsed.cli);
    t = await target(parsed, env);
  } catch (e) {
    process.stderr.write(`svc-gateway run: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const s = agentSettings(cli, t.url, t.key);
  // Under the user's cache, private: Gemini CLI refuses a settings file below a world-writable folder (/tmp).
  const cache = join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache"), "svc-gateway");
  mkdirSync(cache, { recursive: true, mode: 0o700 });
  const dir = mkdtempSync(join(cache, `run-${cli}-`));
  try {
    for (const [name, content] of Object.entries(s.files)) writeFileSync(join(dir, name), content, { mode: 0o600 });
    let proc;
    try {
      proc = Bun.spawn([cli, ...parsed.rest], { env: { ...env, ...resolvedEnv(s, dir) }, stdin: "inherit", stdout: "inherit", stderr: "inherit" });
    } catch (e) {
      process.stderr.write(`svc-gateway run: cannot start ${cli}: ${(e as Error).message} (is it installed and on PATH?)\n`);
      return 127;
    }
    // The terminal's Ctrl-C reaches the child by itself (same process group); a TERM sent to us is passed on.
    const forward = () => proc.kill("SIGTERM");
    process.on("SIGTERM", forward);
    process.on("SIGINT", () => {});
    const code = await proc.exited;
    process.off("SIGTERM", forward);
    return code;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function connectAgent(argv: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  try {
    const parsed = parse(argv, false);
    const cli = cliOf(parsed.cli);
    const t = await target(parsed, env);
    const dir = join(env.HOME || homedir(), ".config", "svc-gateway", cli);
    process.stdout.write(shellScript(cli, agentSettings(cli, t.url, t.key), dir));
    return 0;
  } catch (e) {
    process.stderr.write(`svc-gateway connect: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
}
