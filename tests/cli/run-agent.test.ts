// Issue 32: `svc-gateway run -- <cli>` and `svc-gateway connect <cli>` with stand-in CLIs on PATH (shell scripts
// that print what they were given): the environment and settings file each CLI needs, the arguments and exit
// code passed through, the temporary folder removed afterwards; connect's lines work under `eval`. The real
// pinned CLIs are run in tests/clients/agent-run.test.ts.
import { beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { scratchDir } from "../helpers/scratch";

const ROOT = resolve(import.meta.dir, "../..");
let bin: string;
let home: string;

beforeAll(() => {
  const dir = scratchDir("svc-run-agent-");
  bin = join(dir, "bin");
  home = join(dir, "home");
  mkdirSync(bin);
  mkdirSync(home);
  // Each stand-in prints its arguments, the variables the gateway sets, and the files they name.
  const script = `#!/bin/sh
echo "args:$*"
for v in ANTHROPIC_BASE_URL ANTHROPIC_API_KEY GOOGLE_GEMINI_BASE_URL GEMINI_API_KEY SVC_GATEWAY_KEY CODEX_HOME GEMINI_CLI_SYSTEM_SETTINGS_PATH OPENCODE_CONFIG; do
  eval "val=\\$$v"; [ -n "$val" ] && echo "$v=$val"
done
[ -n "$CODEX_HOME" ] && cat "$CODEX_HOME/config.toml"
[ -n "$GEMINI_CLI_SYSTEM_SETTINGS_PATH" ] && cat "$GEMINI_CLI_SYSTEM_SETTINGS_PATH"
[ -n "$OPENCODE_CONFIG" ] && cat "$OPENCODE_CONFIG"
exit \${FAKE_EXIT:-0}
`;
  for (const name of ["claude", "codex", "gemini", "opencode"]) {
    writeFileSync(join(bin, name), script);
    chmodSync(join(bin, name), 0o755);
  }
});

async function svc(args: string[], extraEnv: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  const proc = Bun.spawn(["bun", "src/main.ts", ...args], {
    cwd: ROOT,
    env: { PATH: `${bin}:${process.env.PATH}`, HOME: home, ...extraEnv },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code: await proc.exited, out, err };
}

describe("svc-gateway run", () => {
  test("claude gets the messages surface and the key; its own arguments pass through untouched", async () => {
    const r = await svc(["run", "--url", "http://gw.test:5001", "--key", "sk-run", "--", "claude", "-p", "hello there", "--model", "x"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("args:-p hello there --model x");
    expect(r.out).toContain("ANTHROPIC_BASE_URL=http://gw.test:5001/msgapi");
    expect(r.out).toContain("ANTHROPIC_API_KEY=sk-run");
  });

  test("codex gets a CODEX_HOME of its own with the provider, removed after the run; the exit code is passed on", async () => {
    const r = await svc(["run", "--url", "http://gw.test:5001/", "--key", "sk-run", "--", "codex", "exec", "hi"], { FAKE_EXIT: "7" });
    expect(r.code).toBe(7);
    expect(r.out).toContain("SVC_GATEWAY_KEY=sk-run");
    expect(r.out).toContain('base_url = "http://gw.test:5001/v1"');
    expect(r.out).toContain('env_key = "SVC_GATEWAY_KEY"');
    const codexHome = /CODEX_HOME=(.*)/.exec(r.out)![1]!;
    expect(existsSync(codexHome)).toBe(false);
  });

  test("gemini gets system settings selecting API-key auth; opencode an OpenAI-compatible provider", async () => {
    const g = await svc(["run", "--url", "http://gw.test:5001", "--key", "sk-run", "--", "gemini"]);
    expect(g.out).toContain("GOOGLE_GEMINI_BASE_URL=http://gw.test:5001");
    expect(g.out).toContain('"selectedType": "gemini-api-key"');
    const o = await svc(["run", "--url", "http://gw.test:5001", "--key", "sk-run", "--", "opencode", "run", "x"]);
    expect(o.out).toContain('"baseURL": "http://gw.test:5001/v1"');
    expect(o.out).toContain('"apiKey": "{env:SVC_GATEWAY_KEY}"');
    expect(o.out).not.toContain('"apiKey": "sk-run"');
  });

  test("the key defaults to SVC_GATEWAY_KEY, else the local configuration's first API key", async () => {
    expect((await svc(["run", "--", "claude"], { SVC_GATEWAY_KEY: "sk-env" })).out).toContain("ANTHROPIC_API_KEY=sk-env");
    const cfg = join(home, "config.json");
    writeFileSync(cfg, JSON.stringify({ api_keys: [{ key: "sk-config", name: "t" }] }));
    const r = await svc(["run", "--", "claude"], { SVC_CONFIG_PATH: cfg, PORT: "6123" });
    expect(r.out).toContain("ANTHROPIC_API_KEY=sk-config");
    expect(r.out).toContain("ANTHROPIC_BASE_URL=http://127.0.0.1:6123/msgapi");
  });

  test("an unknown CLI or no key: exit 2 with the usage", async () => {
    const r = await svc(["run", "--key", "k", "--", "vim"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("name one of claude, codex, gemini, opencode");
    const n = await svc(["run", "--", "claude"], { SVC_CONFIG_PATH: join(home, "none.json") });
    expect(n.code).toBe(2);
    expect(n.err).toContain("no API key");
  });
});

describe("svc-gateway connect", () => {
  test("prints shell lines that, evaluated, write the settings file and export what run would set", async () => {
    const r = await svc(["connect", "codex", "--url", "http://gw.test:5001", "--key", "sk-it's"]);
    expect(r.code).toBe(0);
    const check = Bun.spawn(["sh", "-c", `eval "$1"; echo "key=$SVC_GATEWAY_KEY"; echo "home=$CODEX_HOME"; cat "$CODEX_HOME/config.toml"`, "sh", r.out], { env: { HOME: home, PATH: process.env.PATH ?? "" }, stdout: "pipe" });
    const out = await new Response(check.stdout).text();
    expect(out).toContain("key=sk-it's");
    expect(out).toContain(`home=${join(home, ".config", "svc-gateway", "codex")}`);
    expect(out).toContain('base_url = "http://gw.test:5001/v1"');
    expect(readFileSync(join(home, ".config", "svc-gateway", "codex", "config.toml"), "utf8")).toContain("[model_providers.svc]");
  });
});
