// An idle gateway nobody scrapes runs no process-metrics monitors (issue 35): prom-client's event loop delay
// monitor alone woke the process ≈ 100 times a second, forever, from the first quiet moment after a start. The
// first scrape of /metrics sets them up, and the process CPU counters still count from the process's start.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import type { CoreSimulator } from "../../src/sim/index";
import { createLogger } from "../../src/util/log";
import { startGateway, type RunningGateway } from "../../src/server";
import { startTestSimulator } from "../helpers/sim";
import { scratchDir } from "../helpers/scratch";
import { Scrape } from "../helpers/prometheus";

const KEY = "sk-idle-monitors";
const ADMIN_KEY = "idle-monitors-admin-key";
let sim: CoreSimulator;
let gw: RunningGateway;
let url: string;

beforeAll(async () => {
  sim = await startTestSimulator();
  const dataDir = scratchDir("svc-gw-idle-monitors-");
  gw = await startGateway({
    loaded: { config: { keys: [KEY], accounts: [{ email: "a@sim.test", password: "pw" }] }, source: "test", path: join(dataDir, "config.json"), data_dir: dataDir, env_backed: false, env_source_present: false, env_writeback_enabled: false, warnings: [] },
    log: createLogger("error", () => {}),
    port: 0,
    host: "127.0.0.1",
    env: { SVC_ADMIN_KEY: ADMIN_KEY, SVC_CORE_BASE_URL: sim.url },
    quiet: true,
  });
  url = `http://127.0.0.1:${gw.port}`;
});

afterAll(async () => {
  await gw.drain();
  await sim.stop();
});

const monitorsRunning = () => gw.ctx.ops!.metrics["processRegistry"] !== undefined;

test("traffic and the idle collection after it start no monitor; the first scrape does, with CPU counted from the start", async () => {
  const r = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({ model: "core-v4-flash", messages: [{ role: "user", content: "hello" }] }),
  });
  expect(r.status).toBe(200);
  await r.text();
  // The idle collection runs once the server has been quiet for 2 s (server.ts, util/idle-gc.ts).
  await Bun.sleep(2300);
  expect(monitorsRunning()).toBe(false);

  const cpuBefore = process.cpuUsage();
  const scrape = await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${ADMIN_KEY}` } });
  expect(scrape.status).toBe(200);
  const s = new Scrape(await scrape.text());
  expect(monitorsRunning()).toBe(true);
  expect(s.family("svc_gateway_nodejs_eventloop_lag_seconds").type).toBe("gauge");
  // The counter includes the CPU this process used before the monitors were set up.
  expect(s.sum("svc_gateway_process_cpu_seconds_total")).toBeGreaterThanOrEqual((cpuBefore.user + cpuBefore.system) / 1e6);
});
