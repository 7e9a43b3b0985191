// Issue 15 item 9: JSON bodies nested deeper than MAX_JSON_DEPTH are 400 invalid_json on every route (the
// config import answered 500: a stack overflow in structuredClone), and the config writes whose meaning is
// the body refuse an empty one (D3.5) instead of writing the config.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { startLiveGateway, TEST_ADMIN_KEY, type LiveGateway } from "../helpers/gateway";
import { startTestSimulator } from "../helpers/sim";
import { MAX_JSON_DEPTH, jsonDepthExceeds } from "../../src/http/json-depth";
import type { CoreSimulator } from "../../src/sim/index";

const KEY = "sk-json-depth";
const MODEL = "core-v4-flash-nothinking";
const ADMIN = { Authorization: `Bearer ${TEST_ADMIN_KEY}` };
const deep = (n: number) => `{"config":${"[".repeat(n)}${"]".repeat(n)}}`;

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

const post = (path: string, body: string | undefined, headers: Record<string, string>) =>
  fetch(`${g.url}${path}`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body });

describe("nesting limit", () => {
  test.each(["/admin/config/import", "/admin/config/import?mode=replace", "/admin/config", "/admin/keys", "/admin/accounts"])(
    "100,000-deep JSON on %s → 400 invalid_json {detail}, config untouched",
    async (path) => {
      const r = await post(path, deep(100_000), ADMIN);
      expect(r.status).toBe(400);
      const j = await r.json();
      expect(Object.keys(j)).toEqual(["detail"]);
      expect(j.detail).toContain(`deeper than ${MAX_JSON_DEPTH}`);
      expect(g.gw.ctx.config.get().keys).toEqual([KEY]);
    },
  );

  test("business surfaces answer in their own shape", async () => {
    const body = `{"model":"${MODEL}","messages":[{"role":"user","content":"x"}],"extra":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    const chat = await post("/v1/chat/completions", body, { Authorization: `Bearer ${KEY}` });
    expect(chat.status).toBe(400);
    expect((await chat.json()).error).toMatchObject({ code: "invalid_json", type: "invalid_request_error" });
    const msgs = await post("/v1/messages", body, { Authorization: `Bearer ${KEY}` });
    expect(msgs.status).toBe(400);
    expect(await msgs.json()).toMatchObject({ type: "error", error: { code: "invalid_json" } });
    const gen = await post(`/v1beta/models/${MODEL}:generateContent`, body, { "x-goog-api-key": KEY });
    expect(gen.status).toBe(400);
    expect((await gen.json()).error).toMatchObject({ code: 400, status: "INVALID_ARGUMENT", details: [{ reason: "invalid_json" }] });
  });

  test("nesting up to the limit is served as usual", async () => {
    const inner = `${"[".repeat(MAX_JSON_DEPTH - 2)}1${"]".repeat(MAX_JSON_DEPTH - 2)}`;
    const body = `{"model":"${MODEL}","messages":[{"role":"user","content":"nested metadata"}],"metadata":{"x":${inner}}}`;
    expect(jsonDepthExceeds(new TextEncoder().encode(body))).toBe(false);
    const r = await post("/v1/chat/completions", body, { Authorization: `Bearer ${KEY}` });
    expect(r.status).toBe(200);
  });

  test("brackets inside strings and escaped quotes do not count", () => {
    const s = JSON.stringify({ text: "[".repeat(1000) + '\\"{{{' + "{".repeat(1000) });
    expect(jsonDepthExceeds(new TextEncoder().encode(s))).toBe(false);
    expect(jsonDepthExceeds(new TextEncoder().encode(`{"a":"\\\\"${",[".repeat(0)}}`))).toBe(false);
    expect(jsonDepthExceeds(new TextEncoder().encode("[".repeat(MAX_JSON_DEPTH + 1)))).toBe(true);
    expect(jsonDepthExceeds(new TextEncoder().encode("[".repeat(MAX_JSON_DEPTH)))).toBe(false);
  });
});

describe("empty bodies on config writes (D3.5)", () => {
  test.each(["/admin/config", "/admin/config/import", "/admin/config/import?mode=replace"])("%s with no body → 400 invalid_json, nothing written", async (path) => {
    const before = g.gw.ctx.config.get();
    const file = `${g.gw.ctx.dataDir}/config.json`;
    const fileBefore = existsSync(file) ? readFileSync(file, "utf8") : null;
    for (const body of [undefined, "", "  \n"]) {
      const r = await post(path, body, ADMIN);
      expect(r.status).toBe(400);
      expect((await r.json()).detail).toMatch(/empty|not valid JSON/);
    }
    expect(g.gw.ctx.config.get()).toEqual(before);
    expect(existsSync(file) ? readFileSync(file, "utf8") : null).toBe(fileBefore);
  });

  test("other admin writes still take an empty body as {}", async () => {
    const r = await post("/admin/login", undefined, {});
    expect(r.status).toBe(401);
  });
});
