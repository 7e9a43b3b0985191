// An idle gateway nobody scrapes runs no process-metrics monitors (issue 35): prom-client's event loop delay
// monitor alone woke the process ≈ 100 times a second, forever, from the first quiet moment after a start. The
// first scrape of /metrics sets them up, and the process CPU counters still count from the process's start.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { CoreSimulator } from "../../src/sim/index";
import { startTestSimulator } from "../helpers/sim";
import { startLiveGateway, TEST_ADMIN_KEY, type LiveGateway } from "../helpers/gateway";
import { Scrape } from "../helpers/prometheus";

const KEY = "sk-idle-monitors";
let sim: CoreSimulator;
let g: LiveGateway;

beforeAll(async () => {
  sim = await startTestSimulator();
  g = await startLiveGateway({ config: { keys: [KEY], accounts: [{ email: "a@sim.test", password: "pw" }] }, env: { SVC_CORE_BASE_URL: sim.url } });
});

afterAll(async () => {
  await g.stop();
  await sim.stop();
});

const monitorsRunning = () => g.gw.ctx.ops!.metrics["processRegistry"] !== undefined;

test("traffic and the idle collection after it start no monitor; the first scrape does, with CPU counted from the start", async () => {
  const r = await fetch(`${g.url}/v1/chat/completions`, {
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
  const scrape = await fetch(`${g.url}/metrics`, { headers: { Authorization: `Bearer ${TEST_ADMIN_KEY}` } });
  expect(scrape.status).toBe(200);
  const s = new Scrape(await scrape.text());
  // Monitors set up by this very scrape have no sample yet: their gauges read NaN, as prom-client exposes them.
  expect(monitorsRunning()).toBe(true);
  expect(s.family("svc_gateway_nodejs_eventloop_lag_seconds").type).toBe("gauge");
  // The counter includes the CPU this process used before the monitors were set up.
  expect(s.sum("svc_gateway_process_cpu_seconds_total")).toBeGreaterThanOrEqual((cpuBefore.user + cpuBefore.system) / 1e6);
});
