// The per-request series (src/metering/prom.ts CounterSeries/HistogramSeries) update prom-client's own entries in
// place instead of calling inc/observe. Differential: the same observations through the series and through
// prom-client's public calls on a twin metric must expose the same text — values on bucket bounds, above the
// last bound, zero, fractions, a reset in the middle, label values in any order of first appearance.
import { describe, expect, test } from "bun:test";
import { Counter, CounterSeries, Histogram, HistogramSeries, Registry } from "../../src/metering/prom";
import { GatewayMetrics, type RequestFacts } from "../../src/metering/metrics";

const BOUNDS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

// A small deterministic generator: the test is the same on every run.
function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** The text of a metric without the registry's name, so that two registries can be compared. */
async function text(reg: Registry, from: string, to: string): Promise<string> {
  return (await reg.metrics()).replaceAll(from, to);
}

describe("series against prom-client's own calls", () => {
  test("counters: same values per label set, a reset included", async () => {
    const a = new Registry();
    const b = new Registry();
    const fast = new CounterSeries(new Counter({ name: "x_total", help: "h", labelNames: ["surface", "model"], registers: [a] }));
    const twin = new Counter({ name: "x_total", help: "h", labelNames: ["surface", "model"], registers: [b] });
    const r = rng(7);
    const surfaces = ["chat", "messages", "admin"];
    const models = ["m1", "m2", "", "m:3"];
    for (let i = 0; i < 3000; i++) {
      const surface = surfaces[Math.floor(r() * surfaces.length)]!;
      const model = models[Math.floor(r() * models.length)]!;
      const v = r() < 0.2 ? 0 : Math.floor(r() * 1000) / 7;
      const key = `${surface}\u0000${model}`;
      if (!fast.inc(key, v)) fast.first(key, { surface, model }, v);
      twin.inc({ surface, model }, v);
      if (i === 1500) {
        fast.metric.reset();
        twin.reset();
      }
    }
    const got = await text(a, "", "");
    expect(got).toBe(await text(b, "", ""));
    // The series were really there (not an empty exposition on both sides).
    expect(got.match(/^x_total\{/gm)!.length).toBeGreaterThanOrEqual(10);
  });

  test("counters: prom-client's refusals still come from prom-client", () => {
    const fast = new CounterSeries(new Counter({ name: "y_total", help: "h", labelNames: ["k"], registers: [new Registry()] }));
    fast.first("a", { k: "a" }, 1);
    expect(fast.inc("a", -1)).toBe(false);
    expect(() => fast.first("a", { k: "a" }, -1)).toThrow();
    expect(fast.inc("a", Infinity)).toBe(false);
    expect(() => fast.first("a", { k: "a" }, Infinity)).toThrow();
    expect(fast.inc("a", 2)).toBe(true);
  });

  test("histograms: same buckets, sums and counts per label set, a reset included", async () => {
    const a = new Registry();
    const b = new Registry();
    const fast = new HistogramSeries(new Histogram({ name: "d_seconds", help: "h", labelNames: ["surface", "stream"], buckets: BOUNDS, registers: [a] }));
    const twin = new Histogram({ name: "d_seconds", help: "h", labelNames: ["surface", "stream"], buckets: BOUNDS, registers: [b] });
    const r = rng(11);
    for (let i = 0; i < 3000; i++) {
      const surface = ["chat", "generate", "models"][Math.floor(r() * 3)]!;
      const stream = r() < 0.5 ? "true" : "false";
      // On a bound, just above one, above the last, zero, negative, and anywhere.
      const pick = r();
      const v = pick < 0.2 ? BOUNDS[Math.floor(r() * BOUNDS.length)]! : pick < 0.3 ? 42 : pick < 0.35 ? 0 : pick < 0.37 ? -0.5 : r() * 12;
      const key = `${surface}\u0000${stream}`;
      if (!fast.observe(key, v)) fast.first(key, { surface, stream }, v);
      twin.observe({ surface, stream }, v);
      if (i === 2000) {
        fast.metric.reset();
        twin.reset();
      }
    }
    const got = await text(a, "", "");
    expect(got).toBe(await text(b, "", ""));
    expect(got).toContain('d_seconds_bucket{le="+Inf",surface="chat",stream="true"}');
  });

  test("histograms: a value prom-client refuses is refused by prom-client", () => {
    const fast = new HistogramSeries(new Histogram({ name: "e_seconds", help: "h", labelNames: ["k"], buckets: BOUNDS, registers: [new Registry()] }));
    fast.first("a", { k: "a" }, 1);
    expect(fast.observe("a", Number.NaN)).toBe(false);
    expect(() => fast.first("a", { k: "a" }, Number.NaN)).toThrow();
    expect(fast.observe("a", 0.3)).toBe(true);
  });
});

describe("GatewayMetrics.request", () => {
  test("exposes what prom-client's own calls on the same facts expose", async () => {
    const m = new GatewayMetrics({ version: "9.9.9", pool: () => ({ inUse: 0, waiting: 0, available: 1, accounts: 1, cooldown: 0, loginFailing: 0 }) });
    // The reference: the same series through prom-client's public calls (the code before the series).
    const ref = new Registry();
    const registers = [ref];
    const p = "svc_gateway_";
    const LAT = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
    const requests = new Counter({ name: `${p}requests_total`, help: "-", labelNames: ["surface", "route", "status", "model"], registers });
    const duration = new Histogram({ name: `${p}request_duration_seconds`, help: "-", labelNames: ["surface", "model", "stream", "status_class"], buckets: LAT, registers });
    const ttft = new Histogram({ name: `${p}time_to_first_token_seconds`, help: "-", labelNames: ["surface", "model", "stream"], buckets: LAT, registers });
    const ttfb = new Histogram({ name: `${p}time_to_first_byte_seconds`, help: "-", labelNames: ["surface", "route"], buckets: LAT, registers });
    const tokens = new Counter({ name: `${p}tokens_total`, help: "-", labelNames: ["direction", "model", "key"], registers });
    const aborted = new Counter({ name: `${p}streams_aborted_total`, help: "-", labelNames: ["surface"], registers });
    const errs = new Counter({ name: `${p}errors_total`, help: "-", labelNames: ["surface", "code"], registers });
    const r = rng(3);
    const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
    for (let i = 0; i < 2000; i++) {
      const f: RequestFacts = {
        surface: pick(["chat", "messages", "health", "admin"]),
        route: pick(["/v1/chat/completions", "/readyz", ""]),
        status: pick([200, 200, 400, 404, 429, 499, 500, 503]),
        model: pick(["core-v4-flash", "core-v4", ""]),
        key: pick(["fp1", "fp2", "passthrough", ""]),
        durationMs: r() * 20_000,
        ttfbMs: r() < 0.5 ? r() * 3000 : undefined,
        inputTokens: r() < 0.6 ? Math.floor(r() * 5000) : undefined,
        outputTokens: r() < 0.6 ? Math.floor(r() * 500) : undefined,
        stream: r() < 0.5,
        aborted: r() < 0.1,
        errorCode: pick(["", "", "", "rate_limited", "upstream_error"]),
        ttftMs: r() < 0.5 ? r() * 4000 : undefined,
      };
      m.request(f);
      const stream = f.stream ? "true" : "false";
      requests.inc({ surface: f.surface, route: f.route, status: String(f.status), model: f.model });
      duration.observe({ surface: f.surface, model: f.model, stream, status_class: `${Math.floor(f.status / 100)}xx` }, f.durationMs / 1000);
      if (f.ttftMs !== undefined) ttft.observe({ surface: f.surface, model: f.model, stream }, f.ttftMs / 1000);
      if (f.stream && f.ttfbMs !== undefined) ttfb.observe({ surface: f.surface, route: f.route }, f.ttfbMs / 1000);
      if (f.inputTokens) tokens.inc({ direction: "input", model: f.model, key: f.key }, f.inputTokens);
      if (f.outputTokens) tokens.inc({ direction: "output", model: f.model, key: f.key }, f.outputTokens);
      if (f.aborted) aborted.inc({ surface: f.surface });
      if (f.errorCode) errs.inc({ surface: f.surface, code: f.errorCode });
    }
    // Series lines only (the HELP texts differ): every line of the reference is in the gateway's exposition.
    const lines = (t: string) => t.split("\n").filter((l) => l.startsWith(p));
    const want = lines(await ref.metrics());
    // The gateway's other series (process metrics, pool gauges, build info) are not the reference's.
    const name = (l: string) => l.split(/[{ ]/)[0]!.replace(/_(bucket|sum|count)$/, "");
    const names = new Set(want.map(name));
    const got = new Set(lines(await m.text()).filter((l) => names.has(name(l))));
    expect(want.length).toBeGreaterThan(500);
    for (const l of want) expect(got.has(l)).toBe(true);
    expect(got.size).toBe(want.length);
  });

  test("the process metrics come first, as when they shared the gateway's registry", async () => {
    const m = new GatewayMetrics({ version: "9.9.9", pool: () => ({ inUse: 0, waiting: 0, available: 1, accounts: 1, cooldown: 0, loginFailing: 0 }) });
    const t = await m.text();
    const cpu = t.indexOf("# HELP svc_gateway_process_cpu_user_seconds_total");
    const own = t.indexOf("# HELP svc_gateway_requests_total");
    expect(cpu).toBeGreaterThanOrEqual(0);
    expect(own).toBeGreaterThan(cpu);
    // One blank line between metrics, the seam included; one newline at the end.
    expect(t).not.toContain("\n\n\n");
    expect(t.endsWith("\n") && !t.endsWith("\n\n")).toBe(true);
  });

  test("process CPU counts from the process's start, though the process metrics are set up later", async () => {
    const m = new GatewayMetrics({ version: "9.9.9", pool: () => ({ inUse: 0, waiting: 0, available: 1, accounts: 1, cooldown: 0, loginFailing: 0 }) });
    const used = process.cpuUsage();
    const t = await m.text();
    const value = (name: string) => Number(new RegExp(`^svc_gateway_${name} (\\S+)$`, "m").exec(t)![1]);
    // This process has run the test runner and the tests above: far more than the moment since the set-up.
    expect(value("process_cpu_seconds_total")).toBeGreaterThanOrEqual((used.user + used.system) / 1e6);
    expect(value("process_cpu_user_seconds_total")).toBeGreaterThanOrEqual(used.user / 1e6);
    expect(value("process_cpu_system_seconds_total")).toBeGreaterThanOrEqual(used.system / 1e6);
  });
});
