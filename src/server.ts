// Builds the running gateway: context, app, listener, optional in-process simulator (demo mode), drain.
import type { Server } from "bun";
import { createApp } from "./app";
import { buildContext, type ContextOptions } from "./context-builder";
import type { AppContext } from "./context";
import type { LoadedConfig } from "./config/load";
import type { Logger } from "./util/log";
import { servingHandler } from "./http/serve-handler";
import { socketRequest } from "./http/route-url";
import { VERSION } from "./version";
import { idleGc } from "./util/idle-gc";

export interface StartOptions {
  loaded: LoadedConfig;
  log: Logger;
  port: number;
  host: string;
  env: Record<string, string | undefined>;
  /** `svc-gateway demo`: a demo key and account on the simulator. */
  demo?: boolean;
  /** Tests: skip printing a generated admin key. */
  quiet?: boolean;
}

export interface RunningGateway {
  ctx: AppContext;
  port: number;
  demo: boolean;
  demoKey?: string;
  simUrl?: string;
  drain(): Promise<void>;
}

const DRAIN_GRACE_MS = 10_000;

export async function startGateway(opts: StartOptions): Promise<RunningGateway> {
  const built = await buildContext({ ...opts } satisfies ContextOptions);
  const { ctx } = built;
  const app = createApp(ctx);
  const handler = servingHandler(app);

  const server: Server<undefined> = Bun.serve({
    port: opts.port,
    hostname: opts.host,
    reusePort: false,
    // Probes and admin routes keep Bun's idle timeout; long requests lift it per request (D1.3).
    idleTimeout: 30,
    // The gateway's own limits (D3.4) always answer first.
    maxRequestBodySize: 256 * 1024 * 1024,
    fetch: (request) => handler(request),
  });
  // The app may see a re-addressed copy of a request (route-url.ts); the server knows only the original.
  ctx.server = {
    timeout: (req, s) => server.timeout(socketRequest(req), s),
    requestIP: (req) => server.requestIP(socketRequest(req)),
  };
  // Ready first (issue 35): what the first requests do not need is set up by its first use — the process metrics
  // and their monitors by the first scrape of /metrics (metrics.ts), the request log's file by its first row or
  // read (request-log.ts) — so an idle gateway that nobody scrapes neither holds them nor wakes up for them.
  const gc = idleGc({ busy: () => server.pendingRequests > 0 || ctx.pool.totalInFlight() > 0, collect: () => Bun.gc(true) });
  ctx.onRequestEnd = () => gc.touch();
  // Start-up leaves garbage (route compilation, config validation, module set-up) an idle server never collects:
  // one full collection once it has been quiet for a moment gives the pages back (issue 35's idle RSS).
  gc.touch();
  ctx.lifecycle.ready = true;
  const port = server.port ?? opts.port;
  opts.log.info("listening", {
    version: VERSION,
    address: `${opts.host}:${port}`,
    config_source: opts.loaded.source,
    accounts: ctx.config.get().accounts?.length ?? 0,
    keys: ctx.config.managedKeyCount(),
    demo: built.demo,
  });

  return {
    ctx,
    port,
    demo: built.demo,
    demoKey: built.demoKey,
    simUrl: built.simUrl,
    async drain() {
      ctx.lifecycle.draining = true;
      gc.stop();
      // Stop accepting connections; requests already in flight keep going.
      server.stop(false);
      await built.beforeExit(DRAIN_GRACE_MS);
      const deadline = Date.now() + DRAIN_GRACE_MS;
      while (server.pendingRequests > 0 && Date.now() < deadline) await Bun.sleep(50);
      server.stop(true);
      await built.close();
    },
  };
}
