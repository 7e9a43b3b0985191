// The real gateway on a loopback port (helpers/gateway.ts) pointed at a given core, with the queue and parsed log
// lines at hand: fault tests assert on what the pool holds and what the access log says after clients left.
import { startLiveGateway as startGatewayOnSocket, type LiveGateway as SocketGateway } from "./gateway";
import type { Config } from "../../src/config/schema";

/** The admin key of these gateways (tests send it as a Bearer). */
export const LIVE_ADMIN_KEY = "live-admin-key";

export interface LiveGateway extends SocketGateway {
  /** Parsed log lines with the given msg. */
  lines(msg: string): Record<string, unknown>[];
  queue(): ReturnType<SocketGateway["gw"]["ctx"]["pool"]["status"]>;
}

export async function startLiveGateway(opts: { config: Config; coreUrl: string; env?: Record<string, string> }): Promise<LiveGateway> {
  const g = await startGatewayOnSocket({ config: opts.config, env: { SVC_ADMIN_KEY: LIVE_ADMIN_KEY, SVC_CORE_BASE_URL: opts.coreUrl, ...(opts.env ?? {}) } });
  return {
    ...g,
    lines: (msg) => g.logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === msg),
    queue: () => g.gw.ctx.pool.status(),
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
