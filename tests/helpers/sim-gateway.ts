// The real app in front of a core simulator, for HTTP tests of one surface: `req` goes through app.handle, and
// `url` serves the same app on a loopback port for the official SDKs. `prompts()` are the prompts core received.
import { makeTestApp, type TestApp } from "./app";
import { startTestSimulator } from "./sim";
import type { CoreSimulator } from "../../src/sim/index";
import type { Config } from "../../src/config/schema";

export const SIM_KEY = "sk-sim-gw";

export interface SimGateway {
  sim: CoreSimulator;
  t: TestApp;
  /** http://127.0.0.1:<port>: the app served for SDK clients. */
  url: string;
  /** Bearer + key headers every surface accepts. */
  auth: Record<string, string>;
  /** The prompts of the completion calls core received, oldest first. */
  prompts(): string[];
  stop(): Promise<void>;
}

export async function startSimGateway(config: Config = {}): Promise<SimGateway> {
  const sim = await startTestSimulator();
  const accounts = [{ email: "a@sim.test", password: "pw" }];
  const t = await makeTestApp({ config: { keys: [SIM_KEY], accounts, ...config }, env: { SVC_CORE_BASE_URL: sim.url } });
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", idleTimeout: 0, fetch: (r) => t.app.handle(r) });
  return {
    sim,
    t,
    url: `http://127.0.0.1:${server.port}`,
    auth: { Authorization: `Bearer ${SIM_KEY}` },
    prompts: () => sim.requests({ path: "/api/v0/chat/completion" }).map((r) => String(r.body?.prompt ?? "")),
    async stop() {
      server.stop(true);
      await sim.stop();
    },
  };
}
