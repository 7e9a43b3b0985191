// The real gateway on a real loopback port (startGateway, as main.ts runs it), with its JSON log lines kept for
// assertions. Fault tests use it: client disconnects only behave as in the field over a real socket.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startGateway, type RunningGateway } from "../../src/server";
import { createLogger } from "../../src/http/log";
import type { Config } from "../../src/config/schema";

export interface LiveGateway {
  url: string;
  gw: RunningGateway;
  logs: string[];
  /** Parsed log lines with the given msg. */
  lines(msg: string): Record<string, unknown>[];
  queue(): ReturnType<RunningGateway["ctx"]["pool"]["status"]>;
  stop(): Promise<void>;
}

export async function startLiveGateway(opts: { config: Config; coreUrl: string; env?: Record<string, string> }): Promise<LiveGateway> {
  const logs: string[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), "svc-gw-live-"));
  const gw = await startGateway({
    loaded: {
      config: opts.config,
      source: "test",
      path: join(dataDir, "config.json"),
      data_dir: dataDir,
      env_backed: false,
      env_source_present: false,
      env_writeback_enabled: false,
      warnings: [],
    },
    log: createLogger("debug", (l) => logs.push(l)),
    port: 0,
    host: "127.0.0.1",
    env: { SVC_ADMIN_KEY: "live-admin-key", SVC_CORE_BASE_URL: opts.coreUrl, ...(opts.env ?? {}) },
    quiet: true,
  });
  return {
    url: `http://127.0.0.1:${gw.port}`,
    gw,
    logs,
    lines: (msg) => logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === msg),
    queue: () => gw.ctx.pool.status(),
    stop: () => gw.drain(),
  };
}

/** Polls until `check` holds or `ms` passed; returns whether it held. Used to wait for detached clean-up. */
export async function eventually(check: () => boolean, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await Bun.sleep(10);
  }
  return check();
}
