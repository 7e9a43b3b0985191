// Issue 15 item 10 / D8.6 (revised): a managed key with no accounts is "not set up", not "rate limited":
// 503 no_accounts with guidance on every surface; in demo mode the simulator's demo accounts serve it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startLiveGateway, type LiveGateway } from "../helpers/gateway";
import { startTestSimulator } from "../helpers/sim";
import type { CoreSimulator } from "../../src/sim/index";

const KEY = "sk-team-no-accounts";
const MODEL = "core-v4-flash-nothinking";

function post(g: LiveGateway, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${g.url}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

const surfaces: [string, string, unknown, (j: any) => { code: string; message: string; kind: string }][] = [
  ["chat", "/v1/chat/completions", { model: MODEL, messages: [{ role: "user", content: "hi" }] }, (j) => ({ code: j.error.code, message: j.error.message, kind: j.error.type })],
  ["responses", "/v1/responses", { model: MODEL, input: "hi" }, (j) => ({ code: j.error.code, message: j.error.message, kind: j.error.type })],
  ["messages", "/v1/messages", { model: MODEL, max_tokens: 10, messages: [{ role: "user", content: "hi" }] }, (j) => ({ code: j.error.code, message: j.error.message, kind: `${j.type}/${j.error.type}` })],
  ["generate", `/v1beta/models/${MODEL}:generateContent`, { contents: [{ role: "user", parts: [{ text: "hi" }] }] }, (j) => ({ code: j.error.details[0].reason, message: j.error.message, kind: j.error.status })],
];
const expectedKind: Record<string, string> = { chat: "service_unavailable_error", responses: "service_unavailable_error", messages: "error/api_error", generate: "UNAVAILABLE" };

describe("no accounts with a real core", () => {
  let sim: CoreSimulator;
  let g: LiveGateway;
  beforeAll(async () => {
    sim = await startTestSimulator();
    g = await startLiveGateway({ config: { keys: [KEY] }, env: { SVC_CORE_BASE_URL: sim.url } });
  });
  afterAll(async () => {
    await g.stop();
    await sim.stop();
  });

  test.each(surfaces)("%s: 503 no_accounts, Retry-After 30, guidance in the message", async (name, path, body, read) => {
    const r = await post(g, path, body);
    expect(r.status).toBe(503);
    expect(r.headers.get("retry-after")).toBe("30");
    expect(r.headers.get("x-request-id")).toBeTruthy();
    const e = read(await r.json());
    expect(e.code).toBe("no_accounts");
    expect(e.kind).toBe(expectedKind[name]!);
    expect(e.message).toContain("add accounts");
    expect(e.message).not.toContain(KEY);
  });

  test("a streaming request gets the same 503 before any byte of the stream", async () => {
    const r = await post(g, "/v1/chat/completions", { model: MODEL, stream: true, messages: [{ role: "user", content: "hi" }] });
    expect(r.status).toBe(503);
    expect((await r.json()).error.code).toBe("no_accounts");
  });

  test("the access log says 503 no_accounts, never the key", async () => {
    await post(g, "/v1/chat/completions", { model: MODEL, messages: [{ role: "user", content: "log" }] });
    const lines = g.logs.filter((l) => l.includes('"msg":"request"') && l.includes('"error_code":"no_accounts"'));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).toContain('"status":503');
    expect(g.logs.join("\n")).not.toContain(KEY);
  });
});

describe("no accounts in demo mode (no core origin: the built-in simulator)", () => {
  let g: LiveGateway;
  beforeAll(async () => {
    g = await startLiveGateway({ config: { keys: [KEY] } });
  });
  afterAll(() => g.stop());

  test("a configured key is served by the simulator's demo accounts", async () => {
    const r = await post(g, "/v1/chat/completions", { model: MODEL, messages: [{ role: "user", content: "hello demo" }] });
    expect(r.status).toBe(200);
    const j = await r.json();
    expect(typeof j.choices[0].message.content).toBe("string");
  });

  test("the messages surface too", async () => {
    const r = await post(g, "/v1/messages", { model: MODEL, max_tokens: 50, messages: [{ role: "user", content: "hello demo" }] });
    expect(r.status).toBe(200);
    expect((await r.json()).type).toBe("message");
  });

  test("any other key still works (pass-through on the open simulator)", async () => {
    const r = await post(g, "/v1/chat/completions", { model: MODEL, messages: [{ role: "user", content: "hi" }] }, { Authorization: "Bearer whatever" });
    expect(r.status).toBe(200);
  });
});
