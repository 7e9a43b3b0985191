// Builds the real app around an in-memory configuration for tests that speak HTTP through app.handle.
import { createApp } from "../../src/app";
import { buildContext, type BuiltContext } from "../../src/context-builder";
import type { Config } from "../../src/config/schema";
import { createLogger, type LogLevel } from "../../src/util/log";
import { join } from "node:path";
import { scratchDir } from "./scratch";

export interface TestApp {
  app: ReturnType<typeof createApp>;
  built: BuiltContext;
  logs: string[];
  /** app.handle with a path relative to http://localhost. */
  req(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
}

export async function makeTestApp(opts: { config?: Config; env?: Record<string, string>; path?: string | null; logLevel?: LogLevel } = {}): Promise<TestApp> {
  const logs: string[] = [];
  // A fresh data directory per app: chat history and raw samples are written there.
  const dataDir = scratchDir("svc-gw-test-");
  const built = await buildContext({
    loaded: {
      config: opts.config ?? {},
      source: "test",
      path: opts.path ?? join(dataDir, "config.json"),
      data_dir: dataDir,
      env_backed: opts.path === undefined,
      env_source_present: false,
      env_writeback_enabled: false,
      warnings: [],
    },
    log: createLogger(opts.logLevel ?? "debug", (l) => logs.push(l)),
    // An unreachable core unless a test points at a simulator: no demo simulator is started.
    env: { SVC_ADMIN_KEY: "test-admin-key", SVC_CORE_BASE_URL: "http://127.0.0.1:9", ...(opts.env ?? {}) },
    quiet: true,
  });
  built.ctx.lifecycle.ready = true;
  const app = createApp(built.ctx);
  return {
    app,
    built,
    logs,
    req(path, init = {}) {
      const { json, ...rest } = init;
      const headers = new Headers(rest.headers);
      let body = rest.body;
      if (json !== undefined) {
        body = JSON.stringify(json);
        if (!headers.has("content-type")) headers.set("content-type", "application/json");
      }
      return app.handle(new Request(`http://localhost${path}`, { ...rest, headers, body }));
    },
  };
}
