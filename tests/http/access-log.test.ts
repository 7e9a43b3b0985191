// The access log line (D3.6), written from Elysia's lifecycle (access-log.ts): one line per request, when the
// response ends — for a stream when its body closes or the client leaves — on the real gateway (Bun.serve)
// in front of the core simulator.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { CoreSimulator } from "../../src/sim/index";
import { startTestSimulator } from "../helpers/sim";
import { eventually, LIVE_ADMIN_KEY, startLiveGateway, type LiveGateway } from "../helpers/live-gateway";
import { makeTestApp } from "../helpers/app";

const KEY = "sk-access-log-key";
let sim: CoreSimulator;
let g: LiveGateway;

beforeAll(async () => {
  sim = await startTestSimulator();
  g = await startLiveGateway({ config: { keys: [KEY], accounts: [{ email: "a@sim.test", password: "pw" }] }, coreUrl: sim.url });
});

afterAll(async () => {
  await g.stop();
  await sim.stop();
});

/** The request lines for one path (query included, as logged). */
const linesFor = (path: string) => g.lines("request").filter((l) => l.path === path);

/** Waits for the one line of `path`, and checks that no second one follows. */
async function lineOf(path: string): Promise<Record<string, unknown>> {
  expect(await eventually(() => linesFor(path).length > 0)).toBe(true);
  await Bun.sleep(20);
  const lines = linesFor(path);
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

function chat(probe: string, content: string, opts: { stream?: boolean; signal?: AbortSignal } = {}): Promise<Response> {
  return fetch(`${g.url}/v1/chat/completions?probe=${probe}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({ model: "core-v4-flash", stream: opts.stream ?? false, messages: [{ role: "user", content }] }),
    signal: opts.signal,
  });
}

describe("access log: streams", () => {
  test("a stream read to its end: status 200, stream, bytes_out = the bytes the client got, ttfb_ms, not aborted", async () => {
    const r = await chat("stream-whole", "Say hello.", { stream: true });
    expect(r.status).toBe(200);
    const bytes = (await r.arrayBuffer()).byteLength;
    expect(bytes).toBeGreaterThan(0);
    const line = await lineOf("/v1/chat/completions?probe=stream-whole");
    expect(line).toMatchObject({ status: 200, stream: true, aborted: false, route: "/v1/chat/completions", model: "core-v4-flash", bytes_out: bytes, error_code: "" });
    expect(typeof line.ttfb_ms).toBe("number");
    expect(line.ttfb_ms as number).toBeLessThanOrEqual(line.duration_ms as number);
    expect(line.client_ip).toBe("127.0.0.1");
  });

  test("a client that leaves mid-stream: aborted, status 200, the bytes sent until then", async () => {
    const ac = new AbortController();
    const r = await chat("stream-left", `[[sim:slow-tokens first_token_ms=10 delay_ms=200]] ${"word ".repeat(40)}`, { stream: true, signal: ac.signal });
    expect(r.status).toBe(200);
    const reader = r.body!.getReader();
    let got = 0;
    // The opening keep-alive, then at least one token frame.
    while (got < 40) {
      const { done, value } = await reader.read();
      if (done) break;
      got += value.byteLength;
    }
    ac.abort();
    await reader.cancel().catch(() => {});
    const line = await lineOf("/v1/chat/completions?probe=stream-left");
    expect(line).toMatchObject({ status: 200, stream: true, aborted: true, route: "/v1/chat/completions" });
    // The address is known although the client is gone by the time the line is written.
    expect(line.client_ip).toBe("127.0.0.1");
    expect(line.bytes_out as number).toBeGreaterThanOrEqual(got);
    // 40 words at 200 ms each were not all sent.
    expect(line.bytes_out as number).toBeLessThan(2000);
  });
});

describe("access log: routes and errors", () => {
  test("a parameterised route logs its template; the key in the path is redacted", async () => {
    const r = await fetch(`${g.url}/admin/keys/sk-not-a-configured-key`, { method: "DELETE", headers: { Authorization: `Bearer ${LIVE_ADMIN_KEY}` } });
    await r.arrayBuffer();
    const line = await lineOf("/admin/keys/***");
    expect(line).toMatchObject({ route: "/admin/keys/{key}", status: r.status, surface: "admin" });
    expect(JSON.stringify(g.lines("request"))).not.toContain("sk-not-a-configured-key");
  });

  test("an unknown path: 404 not_found, no route", async () => {
    const r = await fetch(`${g.url}/v1/no-such-thing?probe=404`, { headers: { Authorization: `Bearer ${KEY}` } });
    expect(r.status).toBe(404);
    expect(await lineOf("/v1/no-such-thing?probe=404")).toMatchObject({ status: 404, error_code: "not_found", route: "", surface: "chat" });
  });

  test("a body the schema refuses: 400 invalid_request on the route's template, with the caller", async () => {
    const r = await fetch(`${g.url}/v1/messages/count_tokens?probe=schema`, {
      method: "POST",
      headers: { "x-api-key": KEY, "Content-Type": "application/json" },
      body: JSON.stringify({ model: "claude-sonnet-4-5", messages: "not a list" }),
    });
    expect(r.status).toBe(400);
    const line = await lineOf("/v1/messages/count_tokens?probe=schema");
    expect(line).toMatchObject({ status: 400, error_code: "invalid_request", route: "/v1/messages/count_tokens", surface: "messages", mode: "managed" });
    expect(line.caller as string).toMatch(/^caller:[0-9a-f]{16}$/);
  });

  test("a handled request: 200, the requested and resolved model, the tokens", async () => {
    const r = await chat("whole", "Say hi.");
    expect(r.status).toBe(200);
    await r.json();
    const line = await lineOf("/v1/chat/completions?probe=whole");
    expect(line).toMatchObject({ status: 200, stream: false, aborted: false, error_code: "", model: "core-v4-flash", bytes_out: null, ttfb_ms: null });
    expect(line.resolved_model).not.toBe("");
    expect(line.output_tokens as number).toBeGreaterThan(0);
  });

  test("a CORS preflight: 204, one line", async () => {
    const r = await fetch(`${g.url}/v1/chat/completions?probe=preflight`, {
      method: "OPTIONS",
      headers: { Origin: "http://example.test", "Access-Control-Request-Method": "POST" },
    });
    expect(r.status).toBe(204);
    expect(await lineOf("/v1/chat/completions?probe=preflight")).toMatchObject({ method: "OPTIONS", status: 204, route: "" });
  });

  test("while draining: 503 shutting_down, refused by an onRequest hook and logged all the same", async () => {
    g.gw.ctx.lifecycle.draining = true;
    try {
      const r = await fetch(`${g.url}/v1/models?probe=draining`, { headers: { Authorization: `Bearer ${KEY}` } });
      expect(r.status).toBe(503);
      expect(r.headers.get("x-request-id")).toStartWith("req_");
    } finally {
      g.gw.ctx.lifecycle.draining = false;
    }
    const line = await lineOf("/v1/models?probe=draining");
    expect(line).toMatchObject({ status: 503, error_code: "shutting_down", level: "error" });
  });

  test("the self test's in-process call is not a request of its own: only POST /admin/test is logged", async () => {
    const before = g.lines("request").length;
    const r = await fetch(`${g.url}/admin/test`, { method: "POST", headers: { Authorization: `Bearer ${LIVE_ADMIN_KEY}`, "Content-Type": "application/json" }, body: "{}" });
    expect(r.status).toBe(200);
    expect((await r.json()).success).toBe(true);
    await Bun.sleep(50);
    const added = g.lines("request").slice(before);
    expect(added.map((l) => l.path)).toEqual(["/admin/test"]);
  });
});

describe("access log: inside app.handle", () => {
  test("the line is written by the app itself, before app.handle resolves (no serving wrapper needed)", async () => {
    const t = await makeTestApp({ config: { keys: [KEY] } });
    const r = await t.app.handle(new Request("http://localhost/v1/models?probe=in-app", { headers: { Authorization: `Bearer ${KEY}` } }));
    expect(r.status).toBe(200);
    const lines = t.logs.map((l) => JSON.parse(l)).filter((l) => l.msg === "request");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ path: "/v1/models?probe=in-app", route: "/v1/models", status: 200, client_ip: "" });
    expect(lines[0].request_id).toBe(r.headers.get("x-request-id"));
  });

  test("below the log level no line is built, while metrics still count the request; a 5xx is still written", async () => {
    const t = await makeTestApp({ config: { keys: [KEY] }, logLevel: "warn" });
    await t.app.handle(new Request("http://localhost/v1/models", { headers: { Authorization: `Bearer ${KEY}` } }));
    expect(t.logs.filter((l) => l.includes('"msg":"request"'))).toHaveLength(0);
    expect(await t.built.ctx.ops!.metrics.text()).toMatch(/svc_gateway_requests_total\{[^}]*route="\/v1\/models"[^}]*\} 1/);
    t.built.ctx.lifecycle.draining = true;
    const r = await t.app.handle(new Request("http://localhost/v1/models"));
    expect(r.status).toBe(503);
    const lines = t.logs.map((l) => JSON.parse(l)).filter((l) => l.msg === "request");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "error", status: 503, error_code: "shutting_down" });
  });
});
