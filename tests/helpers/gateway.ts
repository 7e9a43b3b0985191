// The real gateway on a loopback socket (startGateway: Bun.serve, the serving handler, the access log), for
// tests whose subject lives at the socket: client addresses, Host headers, slow bodies, disconnects.
import { join } from "node:path";
import { scratchDir } from "./scratch";
import { startGateway, type RunningGateway } from "../../src/server";
import { createLogger } from "../../src/util/log";
import type { Config } from "../../src/config/schema";

export const TEST_ADMIN_KEY = "test-admin-key";

export interface LiveGateway {
  gw: RunningGateway;
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  logs: string[];
  stop(): Promise<void>;
}

/**
 * Starts the gateway on 127.0.0.1, port 0. Without SVC_CORE_BASE_URL in `env` it runs in demo mode on the
 * built-in simulator, as the binary would.
 */
export async function startLiveGateway(opts: { config?: Config; env?: Record<string, string> } = {}): Promise<LiveGateway> {
  const dataDir = scratchDir("svc-gw-live-");
  const logs: string[] = [];
  const gw = await startGateway({
    loaded: {
      config: opts.config ?? {},
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
    env: { SVC_ADMIN_KEY: TEST_ADMIN_KEY, ...(opts.env ?? {}) },
    quiet: true,
  });
  return {
    gw,
    url: `http://127.0.0.1:${gw.port}`,
    port: gw.port,
    logs,
    stop: () => gw.drain(),
  };
}
