// Per-key enable/disable, expiry and allowed models (issue 31, decisions.md 4.3): refused in each surface's own
// error shape, never passed through to core as a token, edited through /admin/keys and shown by GET /admin/keys
// with today's usage and the last use.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { CoreSimulator } from "../../src/sim/index";
import { startTestSimulator } from "../helpers/sim";
import { startLiveGateway, type LiveGateway } from "../helpers/live-gateway";

const ADMIN = { Authorization: "Bearer live-admin-key", "Content-Type": "application/json" };
const NOW = Date.UTC(2026, 2, 1, 10, 0, 0);
const OPEN = "sk-access-open";
const OFF = "sk-access-off";
const OLD = "sk-access-expired";
const SOON = "sk-access-later";
const FLASH_ONLY = "sk-access-flash";
let sim: CoreSimulator;
let g: LiveGateway;

beforeAll(async () => {
  sim = await startTestSimulator();
  g = await startLiveGateway({
    config: {
      api_keys: [
        { key: OPEN, name: "open" },
        { key: OFF, name: "off", enabled: false },
        { key: OLD, name: "old", expires_at: NOW / 1000 - 1 },
        { key: SOON, name: "soon", expires_at: NOW / 1000 + 3600 },
        { key: FLASH_ONLY, name: "flash", allowed_models: ["core-v4-flash"] },
      ],
      accounts: [{ email: "a@sim.test", password: "pw" }],
    },
    coreUrl: sim.url,
  });
  g.gw.ctx.now = () => NOW;
});
afterAll(async () => {
  await g.stop();
  await sim.stop();
});

const chat = (key: string, model = "core-v4-flash") =>
  fetch(`${g.url}/v1/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "access" }] }),
  });
const messages = (key: string, model = "claude-sonnet-4-5") =>
  fetch(`${g.url}/msgapi/v1/messages`, {
    method: "POST",
    headers: { "x-api-key": key, "Content-Type": "application/json" },
    body: JSON.stringify({ model, max_tokens: 32, messages: [{ role: "user", content: "hi" }] }),
  });
const generate = (key: string, model = "core-v4-flash") =>
  fetch(`${g.url}/v1beta/models/${model}:generateContent`, {
    method: "POST",
    headers: { "x-goog-api-key": key, "Content-Type": "application/json" },
    body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }] }),
  });
const admin = (method: string, path: string, body?: unknown) => fetch(`${g.url}${path}`, { method, headers: ADMIN, body: body === undefined ? undefined : JSON.stringify(body) });

describe("refusals in each surface's shape", () => {
  test("a disabled key: 401 key_disabled (chat, messages, generate), not core's invalid_upstream_token", async () => {
    const c = await chat(OFF);
    expect(c.status).toBe(401);
    expect((await c.json()).error).toMatchObject({ code: "key_disabled", type: "authentication_error" });
    const m = await messages(OFF);
    expect(m.status).toBe(401);
    expect(await m.json()).toMatchObject({ type: "error", error: { type: "authentication_error", code: "key_disabled" } });
    const gen = await generate(OFF);
    expect(gen.status).toBe(401);
    expect((await gen.json()).error).toMatchObject({ code: 401, status: "UNAUTHENTICATED", details: [{ reason: "key_disabled" }] });
  });

  test("an expired key: 401 key_expired; one that expires later works", async () => {
    const c = await chat(OLD);
    expect(c.status).toBe(401);
    expect((await c.json()).error.code).toBe("key_expired");
    const ok = await chat(SOON);
    expect(ok.status).toBe(200);
    await ok.text();
  });

  test("allowed models: the listed model works, another is 403 model_not_allowed", async () => {
    const ok = await chat(FLASH_ONLY);
    expect(ok.status).toBe(200);
    await ok.text();
    const other = await chat(FLASH_ONLY, "core-v4-pro");
    expect(other.status).toBe(403);
    expect((await other.json()).error).toMatchObject({ code: "model_not_allowed", type: "permission_error", param: "model" });
    const m = await messages(FLASH_ONLY, "core-v4-pro");
    expect(m.status).toBe(403);
    expect(await m.json()).toMatchObject({ type: "error", error: { type: "permission_error", code: "model_not_allowed" } });
    const gen = await generate(FLASH_ONLY, "core-v4-pro");
    expect(gen.status).toBe(403);
    expect((await gen.json()).error).toMatchObject({ status: "PERMISSION_DENIED", details: [{ reason: "model_not_allowed" }] });
  });

  test("the request log names the refused key and its code", async () => {
    const r = await fetch(`${g.url}/admin/requests?error_code=key_disabled`, { headers: ADMIN });
    const items = (await r.json()).items;
    expect(items.length).toBe(3);
    expect(items.every((i: { key_name: string; status: number }) => i.key_name === "off" && i.status === 401)).toBe(true);
  });
});

describe("editing through /admin/keys", () => {
  test("PUT disables and re-enables, sets and clears expiry and models; bad values are 400", async () => {
    expect((await admin("PUT", `/admin/keys/${OPEN}`, { enabled: false })).status).toBe(200);
    expect((await chat(OPEN)).status).toBe(401);
    expect((await admin("PUT", `/admin/keys/${OPEN}`, { enabled: null, allowed_models: ["core-v4-pro"] })).status).toBe(200);
    expect((await chat(OPEN)).status).toBe(403);
    expect((await admin("PUT", `/admin/keys/${OPEN}`, { allowed_models: null, expires_at: NOW / 1000 - 5 })).status).toBe(200);
    expect((await chat(OPEN)).status).toBe(401);
    expect((await admin("PUT", `/admin/keys/${OPEN}`, { expires_at: null })).status).toBe(200);
    const ok = await chat(OPEN);
    expect(ok.status).toBe(200);
    await ok.text();
    for (const bad of [{ enabled: "no" }, { expires_at: -1 }, { expires_at: "tomorrow" }, { allowed_models: "core-v4-flash" }, { allowed_models: [""] }])
      expect((await admin("PUT", `/admin/keys/${OPEN}`, bad)).status).toBe(400);
    const created = await admin("POST", "/admin/keys", { key: "sk-access-new", name: "new", enabled: false, allowed_models: ["core-v4-flash"] });
    expect(created.status).toBe(200);
    expect((await chat("sk-access-new")).status).toBe(401);
  });

  test("GET /admin/keys: quota, access fields, state, today's usage and last use", async () => {
    const r = await admin("GET", "/admin/keys");
    expect(r.status).toBe(200);
    const body = await r.json();
    expect(body.day).toBe("2026-03-01");
    const by = (name: string) => body.keys.find((k: { name: string }) => k.name === name);
    expect(by("off")).toMatchObject({ enabled: false, state: "disabled", today: { requests: 0, tokens: 0 }, expires_at: null });
    expect(by("old")).toMatchObject({ enabled: true, state: "expired" });
    expect(by("flash")).toMatchObject({ state: "active", allowed_models: ["core-v4-flash"], quota: { requests_per_minute: null, tokens_per_day: null } });
    // Usage counts every admitted request (issue 20): the one answer and the three 403s after admission.
    expect(by("flash").today.requests).toBe(4);
    expect(by("flash").today.tokens).toBeGreaterThan(0);
    expect(by("flash").last_used_at).not.toBeNull();
    expect(by("new")).toMatchObject({ enabled: false, state: "disabled", allowed_models: ["core-v4-flash"] });
    // A disabled key's refusals count as its last use: the operator sees someone still tries it.
    expect(by("off").last_used_at).not.toBeNull();
  });

  test("POST /admin/config with only legacy keys keeps the access fields of keys that stay", async () => {
    const view = await (await admin("GET", "/admin/config")).json();
    expect(view.api_keys.find((k: { name: string }) => k.name === "off")).toMatchObject({ enabled: false });
    const r = await admin("POST", "/admin/config", { keys: view.keys });
    expect(r.status).toBe(200);
    expect((await chat(OFF)).status).toBe(401);
  });
});
