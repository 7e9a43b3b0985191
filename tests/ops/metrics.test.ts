// GET /metrics on the real gateway (Bun.serve, the serving handler) in front of the core simulator: traffic first,
// then a scrape read by an exposition-format parser that is not the library writing it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { CoreSimulator } from "../../src/sim/index";
import { callerFingerprint } from "../../src/util/hash";
import { VERSION } from "../../src/version";
import { Scrape } from "../helpers/prometheus";
import { startTestSimulator } from "../helpers/sim";
import { eventually, startLiveGateway, type LiveGateway } from "../helpers/live-gateway";

const KEY = "sk-metrics-test-key";
const ADMIN = { Authorization: "Bearer live-admin-key" };
let sim: CoreSimulator;
let g: LiveGateway;

function chat(content: string, opts: { stream?: boolean; model?: string; signal?: AbortSignal } = {}): Promise<Response> {
  return fetch(`${g.url}/v1/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({ model: opts.model ?? "core-v4-flash", stream: opts.stream ?? false, messages: [{ role: "user", content }] }),
    signal: opts.signal,
  });
}

async function scrape(headers: Record<string, string> = ADMIN): Promise<Scrape> {
  const r = await fetch(`${g.url}/metrics`, { headers });
  expect(r.status).toBe(200);
  expect(r.headers.get("content-type")).toStartWith("text/plain");
  return new Scrape(await r.text());
}

const logged = (path: string) => g.lines("request").filter((l) => l.path === path);

beforeAll(async () => {
  sim = await startTestSimulator();
  g = await startLiveGateway({ config: { api_keys: [{ key: KEY, name: "metrics" }], accounts: [{ email: "a@sim.test", password: "pw" }] }, coreUrl: sim.url });
});

afterAll(async () => {
  await g.stop();
  await sim.stop();
});

describe("GET /metrics access", () => {
  test("closed by default: no credential 401, a business key 401, the admin key 200", async () => {
    expect((await fetch(`${g.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${g.url}/metrics`, { headers: { Authorization: `Bearer ${KEY}` } })).status).toBe(401);
    expect((await fetch(`${g.url}/metrics`, { headers: ADMIN })).status).toBe(200);
  });

  test("metrics.token opens it to that bearer; metrics.public to everyone; both hot-set through PUT /admin/settings", async () => {
    const put = (body: unknown) =>
      fetch(`${g.url}/admin/settings`, { method: "PUT", headers: { ...ADMIN, "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const setToken = await put({ metrics: { token: "scrape-token-123" } });
    expect(setToken.status).toBe(200);
    const settings = (await setToken.json()).settings;
    // The token is a secret: settings say only that there is one.
    expect(settings.metrics).toEqual({ public: false, has_token: true });
    expect(JSON.stringify(settings)).not.toContain("scrape-token-123");
    expect((await fetch(`${g.url}/metrics`, { headers: { Authorization: "Bearer scrape-token-123" } })).status).toBe(200);
    expect((await fetch(`${g.url}/metrics`, { headers: { Authorization: "Bearer wrong" } })).status).toBe(401);
    expect((await put({ metrics: { public: true } })).status).toBe(200);
    expect((await fetch(`${g.url}/metrics`)).status).toBe(200);
    expect((await put({ metrics: { public: null, token: null } })).status).toBe(200);
    expect((await fetch(`${g.url}/metrics`)).status).toBe(401);
  });
});

describe("series after traffic on the simulator", () => {
  test("requests, durations, first bytes, tokens by key fingerprint, pool, PoW, logins, queue wait, build info", async () => {
    const plain = await chat("metrics non-stream");
    expect(plain.status).toBe(200);
    await plain.json();
    const streamed = await chat("metrics stream", { stream: true });
    expect(streamed.status).toBe(200);
    await streamed.text();
    expect((await fetch(`${g.url}/readyz`)).status).toBe(200);
    expect((await fetch(`${g.url}/no-such-path-abc`)).status).toBe(404);
    const unknown = await chat("bad model", { model: "no-such-model-xyz" });
    expect(unknown.status).toBe(400);
    await unknown.text();
    expect(await eventually(() => logged("/v1/chat/completions").length === 3)).toBe(true);
    // The slot is released when the turn's stream closes, which may trail the last byte the client read.
    expect(await eventually(() => g.queue().in_use === 0)).toBe(true);
    const resolved = String(logged("/v1/chat/completions")[0]!.resolved_model);
    expect(resolved).not.toBe("");

    const s = await scrape();
    const route = { surface: "chat", route: "/v1/chat/completions" };
    expect(s.family("svc_gateway_requests_total").type).toBe("counter");
    expect(s.sum("svc_gateway_requests_total", { ...route, status: "200", model: resolved })).toBe(2);
    // A name that resolves to nothing is not a label value: clients cannot grow the series.
    expect(s.sum("svc_gateway_requests_total", { ...route, status: "400", model: "" })).toBe(1);
    expect(s.sum("svc_gateway_errors_total", { surface: "chat", code: "model_not_found" })).toBe(1);
    expect(s.text).not.toContain("no-such-model-xyz");
    expect(s.text).not.toContain("no-such-path-abc");
    expect(s.family("svc_gateway_request_duration_seconds").type).toBe("histogram");
    // Latency by the route's surface, resolved model, stream and status class (issue 31).
    expect(s.sum("svc_gateway_request_duration_seconds", { surface: "chat" })).toBe(3);
    expect(s.sum("svc_gateway_request_duration_seconds", { surface: "chat", model: resolved, stream: "false", status_class: "2xx" })).toBe(1);
    expect(s.sum("svc_gateway_request_duration_seconds", { surface: "chat", model: resolved, stream: "true", status_class: "2xx" })).toBe(1);
    expect(s.sum("svc_gateway_request_duration_seconds", { surface: "chat", model: "", stream: "false", status_class: "4xx" })).toBe(1);
    expect(s.family("svc_gateway_time_to_first_token_seconds").type).toBe("histogram");
    expect(s.sum("svc_gateway_time_to_first_token_seconds", { surface: "chat", model: resolved })).toBe(2);
    expect(s.sum("svc_gateway_time_to_first_token_seconds", { surface: "chat", model: resolved, stream: "true" })).toBe(1);
    expect(s.sum("svc_gateway_time_to_first_byte_seconds", route)).toBe(1);

    const key = callerFingerprint(KEY);
    const log = logged("/v1/chat/completions").filter((l) => l.status === 200);
    const input = log.reduce((t, l) => t + Number(l.input_tokens ?? 0), 0);
    const output = log.reduce((t, l) => t + Number(l.output_tokens ?? 0), 0);
    expect(input).toBeGreaterThan(0);
    expect(s.sum("svc_gateway_tokens_total", { direction: "input", model: resolved, key })).toBe(input);
    expect(s.sum("svc_gateway_tokens_total", { direction: "output", model: resolved, key })).toBe(output);
    expect(s.text).not.toContain(KEY);

    expect(s.sum("svc_gateway_pool_accounts")).toBe(1);
    expect(s.sum("svc_gateway_pool_in_use")).toBe(0);
    expect(s.sum("svc_gateway_pool_waiting")).toBe(0);
    expect(s.sum("svc_gateway_pool_available")).toBe(1);
    expect(s.sum("svc_gateway_pool_accounts_cooldown")).toBe(0);
    expect(s.sum("svc_gateway_pool_accounts_login_failing")).toBe(0);
    expect(s.sum("svc_gateway_logins_total", { result: "ok" })).toBe(1);
    expect(s.sum("svc_gateway_pow_solve_seconds", { outcome: "solved" })).toBeGreaterThanOrEqual(2);
    expect(s.sum("svc_gateway_queue_wait_seconds", { outcome: "granted" })).toBeGreaterThanOrEqual(2);
    expect(s.samples("svc_gateway_build_info", { version: VERSION })[0]?.value).toBe(1);
    // Probes are labelled by their path; an invented path is not a label value.
    expect(s.sum("svc_gateway_requests_total", { route: "/readyz", status: "200" })).toBeGreaterThanOrEqual(1);
    // Each route is labelled with its own surface: probes "health", an unknown path "unknown" (never "chat").
    expect(s.sum("svc_gateway_requests_total", { surface: "health", route: "/readyz" })).toBeGreaterThanOrEqual(1);
    expect(s.sum("svc_gateway_requests_total", { surface: "unknown", route: "", status: "404" })).toBe(1);
    expect(s.sum("svc_gateway_requests_total", { surface: "chat" })).toBe(3);
    // Per-account gauges under a masked label, one state at a time; the identifier never appears.
    expect(s.samples("svc_gateway_account_in_flight", { account: "a***@sim.test" })[0]?.value).toBe(0);
    const states = s.samples("svc_gateway_account_state", { account: "a***@sim.test" });
    expect(states.map((x) => x.labels.state).sort()).toEqual(["available", "cooling_down", "in_use", "login_failed"]);
    expect(states.filter((x) => x.value === 1).map((x) => x.labels.state)).toEqual(["available"]);
    expect(s.text).not.toContain("a@sim.test");
    // prom-client's process metrics, on this gateway's own registry.
    expect(s.family("svc_gateway_process_resident_memory_bytes").type).toBe("gauge");
    expect(s.sum("svc_gateway_process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(s.family("svc_gateway_process_cpu_seconds_total").type).toBe("counter");
    expect(s.sum("svc_gateway_request_log_written")).toBeGreaterThanOrEqual(0);
  });

  test("the models list and the console are labelled as their own surfaces", async () => {
    const models = await fetch(`${g.url}/v1/models`, { headers: { Authorization: `Bearer ${KEY}` } });
    expect(models.status).toBe(200);
    await models.text();
    await (await fetch(`${g.url}/admin`)).text();
    await (await fetch(`${g.url}/admin/queue/status`, { headers: ADMIN })).text();
    const s = await scrape();
    expect(s.sum("svc_gateway_requests_total", { surface: "models", route: "/v1/models" })).toBe(1);
    expect(s.sum("svc_gateway_requests_total", { surface: "console", route: "/admin" })).toBe(1);
    expect(s.sum("svc_gateway_requests_total", { surface: "admin", route: "/admin/queue/status" })).toBe(1);
    expect(s.sum("svc_gateway_requests_total", { surface: "chat", route: "/v1/models" })).toBe(0);
  });

  test("a core failure is counted by kind, and the retry that saved the request is not a client error", async () => {
    sim.enqueue({ scenario: "http-error", params: { status: 502, times: 1 } });
    const r = await chat("after one core 502");
    expect(r.status).toBe(200);
    await r.text();
    const s = await scrape();
    expect(s.sum("svc_gateway_core_failures_total", { kind: "upstream_error" })).toBeGreaterThanOrEqual(1);
  });

  test("a streaming client that leaves is counted as aborted", async () => {
    const ac = new AbortController();
    const r = await chat(`[[sim:slow-tokens first_token_ms=10 delay_ms=100]] leaving ${"word ".repeat(40)}`, { stream: true, signal: ac.signal });
    const reader = r.body!.getReader();
    await reader.read();
    ac.abort();
    await reader.cancel().catch(() => {});
    expect(await eventually(() => logged("/v1/chat/completions").some((l) => l.aborted === true))).toBe(true);
    const s = await scrape();
    expect(s.sum("svc_gateway_streams_aborted_total", { surface: "chat" })).toBe(1);
  });

  test("an error inside a started stream is logged and counted by its code", async () => {
    const r = await chat("[[sim:eof-mid-answer]] cut short", { stream: true });
    expect(r.status).toBe(200);
    const body = await r.text();
    expect(body).toContain('"error"');
    expect(await eventually(() => logged("/v1/chat/completions").some((l) => l.status === 200 && l.error_code !== ""))).toBe(true);
    const code = String(logged("/v1/chat/completions").find((l) => l.status === 200 && l.error_code !== "")!.error_code);
    expect(code).toStartWith("upstream_");
    const s = await scrape();
    expect(s.sum("svc_gateway_errors_total", { surface: "chat", code })).toBe(1);
  });
});
