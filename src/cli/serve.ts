// `svc-gateway [serve]` and `svc-gateway demo`: load the configuration, build the context, listen,
// and drain gracefully on SIGTERM/SIGINT (D1.4); SIGHUP reloads the config file (issue 20).
import type { CliArgs } from "./args";
import { ConfigError, loadConfig } from "../config/load";
import { createLogger, parseLogLevel, writeStdout } from "../util/log";
import { startGateway, type RunningGateway } from "../server";
import { VERSION } from "../version";
import { onReloadSignal } from "./reload";
import { effectiveUpstream } from "../config/effective";

export async function runServe(args: CliArgs): Promise<number> {
  const { level, warning } = parseLogLevel(process.env.LOG_LEVEL);
  const log = createLogger(level);
  if (warning) log.warn(warning);

  let loaded;
  try {
    loaded = await loadConfig({ configPath: args.config, env: process.env });
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`svc-gateway: invalid configuration: ${e.message}\n`);
      return 2;
    }
    throw e;
  }

  const port = args.port ?? (process.env.PORT ? Number(process.env.PORT) : 5001);
  // Demo mode answers any key: it listens on loopback unless --host or SVC_HOST say otherwise (issue 33).
  const demo = args.command === "demo" || effectiveUpstream(loaded.config, process.env).base_url === null;
  const host = args.host ?? (process.env.SVC_HOST?.trim() || (demo ? "127.0.0.1" : "0.0.0.0"));
  let gw: RunningGateway;
  try {
    gw = await startGateway({ loaded, log, port, host, env: process.env, demo: args.command === "demo" });
  } catch (e) {
    process.stderr.write(`svc-gateway: cannot start: ${(e as Error).message}\n`);
    return 1;
  }
  if (args.command === "demo" || gw.demo) printDemoBanner(gw);

  return new Promise<number>((resolve) => {
    let stopping = false;
    const onSignal = () => {
      if (stopping) {
        // A second signal: stop at once (D1.4).
        process.exit(130);
      }
      stopping = true;
      log.info("draining", { in_flight: gw.ctx.pool.totalInFlight() });
      gw.drain().then(
        () => {
          log.info("stopped", { exit_code: 0 });
          resolve(0);
        },
        (e) => {
          log.error("stopped", { exit_code: 1, error: String((e as Error)?.message ?? e) });
          resolve(1);
        },
      );
    };
    process.on("SIGTERM", onSignal);
    process.on("SIGINT", onSignal);
    // The census (bun:jsc, node:fs) is loaded only when asked for: a start does not need it (issue 35).
    const censusFile = process.env.SVC_HEAP_CENSUS_FILE;
    if (censusFile) void import("../metering/heap-census").then((m) => m.installHeapCensus(censusFile));
    // Windows has no SIGHUP to send; there the config is reloaded by a restart or the admin API.
    if (process.platform !== "win32") process.on("SIGHUP", onReloadSignal(gw.ctx));
  });
}

function printDemoBanner(gw: RunningGateway): void {
  const base = `http://127.0.0.1:${gw.port}`;
  const key = gw.demoKey ?? "demo-key";
  writeStdout(
    [
      "",
      `svc-gateway ${VERSION} — demo mode: core is the built-in simulator (${gw.simUrl ?? "in process"}).`,
      `Base URL: ${base}    key: ${key}`,
      "",
      "Try:",
      `  curl -s ${base}/v1/chat/completions -H 'Authorization: Bearer ${key}' -H 'Content-Type: application/json' \\`,
      `    -d '{"model":"core-v4-flash","messages":[{"role":"user","content":"Hello!"}]}'`,
      `  curl -sN ${base}/v1/chat/completions -H 'Authorization: Bearer ${key}' -H 'Content-Type: application/json' \\`,
      `    -d '{"model":"core-v4-flash","stream":true,"messages":[{"role":"user","content":"Hello!"}]}'`,
      `  curl -s ${base}/msgapi/v1/messages -H 'x-api-key: ${key}' -H 'Content-Type: application/json' \\`,
      `    -d '{"model":"claude-sonnet-4-5","max_tokens":256,"messages":[{"role":"user","content":"Hello!"}]}'`,
      `  curl -s '${base}/v1beta/models/gemini-2.5-flash:generateContent?key=${key}' -H 'Content-Type: application/json' \\`,
      `    -d '{"contents":[{"role":"user","parts":[{"text":"Hello!"}]}]}'`,
      "",
    ].join("\n") + "\n",
  );
}
