// The cost of the operations hooks (issue 20): what one finished request adds (metrics update + usage row +
// quota check), and how long a scrape of a busy gateway's series takes. Run: `bun bench/metrics.ts`.
import { GatewayMetrics } from "../src/metering/metrics";
import { MemoryUsageStore } from "../src/metering/usage-store";
import { QuotaGate } from "../src/metering/quota";

const metrics = new GatewayMetrics({ version: "bench", pool: () => ({ inUse: 3, waiting: 0, available: 5, accounts: 8, cooldown: 0, loginFailing: 0 }) });
const usage = new MemoryUsageStore();
const keys = Array.from({ length: 50 }, (_, i) => `caller:${i.toString(16).padStart(16, "0")}`);
const models = ["core-v4-flash", "core-v4-pro", "core-v4-flash-nothinking"];
const routes = ["/v1/chat/completions", "/v1/responses", "/msgapi/v1/messages", "/v1beta/models/{model}:generateContent"];
const quota = new QuotaGate({
  config: () => ({ api_keys: keys.map((k) => ({ key: k, quota: { requests_per_minute: 1_000_000_000, tokens_per_day: 1_000_000_000_000 } })) }),
  usage,
  now: Date.now,
});

function oneRequest(i: number): void {
  const key = keys[i % keys.length]!;
  const model = models[i % models.length]!;
  quota.admit(key, key);
  metrics.request({
    surface: "chat",
    route: routes[i % routes.length]!,
    status: i % 50 === 0 ? 429 : 200,
    model,
    key,
    durationMs: 800 + (i % 1000),
    ttfbMs: 300,
    inputTokens: 1200,
    outputTokens: 300,
    stream: i % 2 === 0,
    aborted: false,
    errorCode: i % 50 === 0 ? "key_quota_exceeded" : "",
  });
  usage.add("2026-01-15", key, model, 1200, 300);
}

for (let i = 0; i < 20_000; i++) oneRequest(i); // warm up
const n = 500_000;
let t = performance.now();
for (let i = 0; i < n; i++) oneRequest(i);
const perRequestUs = ((performance.now() - t) * 1000) / n;
console.log(`hooks per finished request      ${perRequestUs.toFixed(2)} µs  (${(1e6 / perRequestUs / 1000).toFixed(0)} k requests/s on one core)`);

const text = await metrics.text();
const runs = 50;
t = performance.now();
for (let i = 0; i < runs; i++) await metrics.text();
console.log(`scrape (${text.split("\n").filter((l) => l && !l.startsWith("#")).length} samples, ${(text.length / 1024).toFixed(0)} KiB)  ${((performance.now() - t) / runs).toFixed(2)} ms`);
