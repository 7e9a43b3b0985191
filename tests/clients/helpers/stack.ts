// The stack the clients suite runs against: the core simulator on loopback (real clock, several accounts so
// parallel CLI runs do not queue behind each other) and the compiled gateway binary pointed at it:
// SVC_GATEWAY_BIN when set (CI: dist/svc-gateway after `bun run build`), else a fresh build of this checkout.
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildBinary, freePort } from "../../helpers/binary";
import { startCoreSimulator, type CoreSimulator } from "../../../src/sim/index";
import { scratchDir } from "../../helpers/scratch";

export interface RunningGateway {
  url: string;
  port: number;
  stderr(): string;
  stop(): Promise<number>;
}

async function startGateway(config: unknown, coreUrl: string): Promise<RunningGateway> {
  const bin = process.env.SVC_GATEWAY_BIN ? resolve(process.env.SVC_GATEWAY_BIN) : await buildBinary();
  const dir = scratchDir("svc-clients-gw-");
  writeFileSync(join(dir, "config.json"), JSON.stringify(config));
  const port = await freePort();
  const env = { PATH: process.env.PATH ?? "", HOME: dir, PORT: String(port), SVC_HOST: "127.0.0.1", SVC_ADMIN_KEY: ADMIN_KEY, SVC_CONFIG_PATH: join(dir, "config.json"), LOG_LEVEL: "warn", SVC_CORE_BASE_URL: coreUrl };
  const proc = Bun.spawn([bin], { cwd: dir, env, stdout: "ignore", stderr: "pipe" });
  let err = "";
  void (async () => {
    const reader = proc.stderr.getReader();
    const dec = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      err += dec.decode(value, { stream: true });
    }
  })();
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {}
    if (proc.exitCode !== null) throw new Error(`gateway exited with ${proc.exitCode}: ${err}`);
    await Bun.sleep(50);
  }
  return {
    url,
    port,
    stderr: () => err,
    stop() {
      proc.kill("SIGTERM");
      return proc.exited;
    },
  };
}

export const API_KEY = "sk-clients-suite";
export const ADMIN_KEY = "clients-admin";

/** The pool's queue status (GET /admin/queue/status). */
export async function queueStatus(gwUrl: string): Promise<{ in_use: number; waiting: number }> {
  return (await fetch(`${gwUrl}/admin/queue/status`, { headers: { Authorization: `Bearer ${ADMIN_KEY}` } })).json() as Promise<{ in_use: number; waiting: number }>;
}

export interface Stack {
  sim: CoreSimulator;
  gw: RunningGateway;
  /** Prompts core received (completion calls only). */
  prompts(): string[];
  stop(): Promise<void>;
}

export async function startStack(accounts = 8): Promise<Stack> {
  const list = Array.from({ length: accounts }, (_, i) => ({ email: `c${i}@sim.test`, password: `pw-${i}` }));
  const sim = await startCoreSimulator({ difficulty: 1000, accounts: list });
  const gw = await startGateway({ keys: [API_KEY], accounts: list }, sim.url);
  return {
    sim,
    gw,
    prompts: () => sim.requests({ path: "/api/v0/chat/completion" }).map((r) => String((r.body as { prompt?: unknown })?.prompt ?? "")),
    async stop() {
      await gw.stop();
      await sim.stop();
    },
  };
}

const TOOL_OPEN = "<｜Tool｜>";
const TOOL_CLOSE = "<｜end▁of▁toolresults｜>";

/** The tool results in a core prompt (what the client sent back after running a tool). */
export function toolResults(prompt: string): string[] {
  const out: string[] = [];
  for (let i = prompt.indexOf(TOOL_OPEN); i >= 0; i = prompt.indexOf(TOOL_OPEN, i + 1)) {
    const end = prompt.indexOf(TOOL_CLOSE, i);
    out.push(prompt.slice(i + TOOL_OPEN.length, end < 0 ? undefined : end));
  }
  return out;
}
