// Usage per key (GET /admin/usage, CSV, the usage file) and per-key quotas (429 key_quota_exceeded in each
// surface's shape, Retry-After to the next window, hot-set through /admin/keys), on the real gateway and simulator.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CoreSimulator } from "../../src/sim/index";
import type { Config } from "../../src/config/schema";
import { FileUsageStore } from "../../src/metering/usage-store";
import { callerFingerprint } from "../../src/util/hash";
import { startTestSimulator } from "../helpers/sim";
import { eventually, startLiveGateway, type LiveGateway } from "../helpers/live-gateway";
import { scratchDir } from "../helpers/scratch";

const ADMIN = { Authorization: "Bearer live-admin-key", "Content-Type": "application/json" };
// Fixed clock: 2026-01-15 12:00:30 UTC, 30 s before the next minute and 43 170 s before the next day.
const NOW = Date.UTC(2026, 0, 15, 12, 0, 30);
const accounts = [{ email: "a@sim.test", password: "pw" }];
let sim: CoreSimulator;
let g: LiveGateway | undefined;

beforeAll(async () => {
  sim = await startTestSimulator();
});
afterEach(async () => {
  await g?.stop();
  g = undefined;
});
afterAll(async () => {
  await sim.stop();
});

async function gateway(config: Config): Promise<LiveGateway> {
  g = await startLiveGateway({ config: { accounts, ...config }, coreUrl: sim.url });
  g.gw.ctx.now = () => NOW;
  return g;
}

function chat(key: string, content = "usage please"): Promise<Response> {
  return fetch(`${g!.url}/v1/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ model: "core-v4-flash", messages: [{ role: "user", content }] }),
  });
}

function messages(key: string): Promise<Response> {
  return fetch(`${g!.url}/msgapi/v1/messages`, {
    method: "POST",
    headers: { "x-api-key": key, "Content-Type": "application/json" },
    body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 64, messages: [{ role: "user", content: "hi" }] }),
  });
}

const admin = (method: string, path: string, body?: unknown) =>
  fetch(`${g!.url}${path}`, { method, headers: ADMIN, body: body === undefined ? undefined : JSON.stringify(body) });

const requestLines = () => g!.lines("request").filter((l) => String(l.path).startsWith("/v1/chat") || String(l.path).startsWith("/msgapi"));

describe("usage per key", () => {
  test("GET /admin/usage groups by key, model and day; CSV export; the full key never appears", async () => {
    await gateway({ api_keys: [{ key: "sk-usage-a", name: "team-a" }, { key: "sk-usage-b", name: "=team-b" }] });
    for (const key of ["sk-usage-a", "sk-usage-a", "sk-usage-b"]) {
      const r = await chat(key);
      expect(r.status).toBe(200);
      await r.json();
    }
    expect(await eventually(() => requestLines().length === 3)).toBe(true);
    const lines = requestLines();
    const tokensOf = (fp: string, field: string) => lines.filter((l) => l.caller === fp).reduce((t, l) => t + Number(l[field]), 0);
    const a = callerFingerprint("sk-usage-a");

    const byKey = await admin("GET", "/admin/usage?group_by=key&from=2026-01-01&to=2026-01-31");
    expect(byKey.status).toBe(200);
    const body = await byKey.json();
    expect(body.group_by).toEqual(["key"]);
    const rowA = body.rows.find((r: { key: string }) => r.key === a);
    expect(rowA).toEqual({
      key: a,
      key_name: "team-a",
      requests: 2,
      prompt_tokens: tokensOf(a, "input_tokens"),
      completion_tokens: tokensOf(a, "output_tokens"),
      total_tokens: tokensOf(a, "input_tokens") + tokensOf(a, "output_tokens"),
    });
    expect(rowA.prompt_tokens).toBeGreaterThan(0);
    expect(body.totals.requests).toBe(3);
    expect(JSON.stringify(body)).not.toContain("sk-usage");

    const full = await (await admin("GET", "/admin/usage")).json();
    expect(full.from).toBe("2025-12-17");
    expect(full.to).toBe("2026-01-15");
    expect(full.rows.map((r: { day: string }) => r.day)).toEqual(["2026-01-15", "2026-01-15"]);
    expect(full.rows.every((r: { model: string }) => r.model !== "")).toBe(true);

    const outside = await (await admin("GET", "/admin/usage?from=2026-02-01&to=2026-02-02")).json();
    expect(outside.rows).toEqual([]);

    const csv = await admin("GET", "/admin/usage?group_by=key&format=csv");
    expect(csv.headers.get("content-type")).toStartWith("text/csv");
    const csvLines = (await csv.text()).trimEnd().split("\r\n");
    expect(csvLines[0]).toBe("key,key_name,requests,prompt_tokens,completion_tokens,total_tokens");
    // A name that a spreadsheet would run as a formula is defused.
    expect(csvLines.some((l) => l.includes(",'=team-b,1,"))).toBe(true);
    expect(csvLines).toHaveLength(3);
  });

  test("bad ranges and groupings are 400 {detail}; no credential is 401", async () => {
    await gateway({ keys: ["sk-x"] });
    for (const q of ["from=2026-13-01", "from=2026-01-20&to=2026-01-10", "group_by=account", "format=xml"]) {
      const r = await admin("GET", `/admin/usage?${q}`);
      expect(r.status).toBe(400);
      expect(typeof (await r.json()).detail).toBe("string");
    }
    expect((await fetch(`${g!.url}/admin/usage`)).status).toBe(401);
  });

  test("the usage file survives a restart: written atomically at shutdown and read back", async () => {
    await gateway({ keys: ["sk-persist"] });
    const r = await chat("sk-persist");
    await r.json();
    expect(await eventually(() => requestLines().length === 1)).toBe(true);
    const path = FileUsageStore.pathIn(g!.gw.ctx.dataDir);
    await g!.stop();
    g = undefined;
    const saved = JSON.parse(readFileSync(path, "utf8"));
    expect(saved.rows).toHaveLength(1);
    expect(saved.rows[0]).toMatchObject({ day: "2026-01-15", key: callerFingerprint("sk-persist"), requests: 1 });
    const reopened = await FileUsageStore.open({ path, onError: () => {} });
    expect(reopened.rows()).toEqual(saved.rows);
    await reopened.close();
  });

  test("an unreadable usage file is reported once and counting starts from zero", async () => {
    const dir = scratchDir("svc-usage-");
    const path = join(dir, "usage.json");
    writeFileSync(path, "{not json");
    const errors: string[] = [];
    const store = await FileUsageStore.open({ path, onError: (m) => errors.push(m) });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("invalid JSON");
    store.add("2026-01-15", "caller:1", "m", 3, 4);
    await store.close();
    expect(JSON.parse(readFileSync(path, "utf8")).rows).toEqual([{ day: "2026-01-15", key: "caller:1", model: "m", requests: 1, prompt_tokens: 3, completion_tokens: 4 }]);
  });
});

describe("quotas per key", () => {
  test("requests per minute: the next request is 429 key_quota_exceeded with Retry-After to the next minute, on every surface", async () => {
    await gateway({ api_keys: [{ key: "sk-rpm", quota: { requests_per_minute: 2 } }, { key: "sk-free" }] });
    for (let i = 0; i < 2; i++) expect((await chat("sk-rpm")).status).toBe(200);
    const refused = await chat("sk-rpm");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("30");
    const err = (await refused.json()).error;
    expect(err.code).toBe("key_quota_exceeded");
    expect(err.type).toBe("rate_limit_error");
    const msg = await messages("sk-rpm");
    expect(msg.status).toBe(429);
    expect(await msg.json()).toMatchObject({ type: "error", error: { type: "rate_limit_error", code: "key_quota_exceeded" } });
    // The refusal is logged with the key's fingerprint, never the key.
    expect(await eventually(() => g!.lines("request").some((l) => l.error_code === "key_quota_exceeded"))).toBe(true);
    const refusal = g!.lines("request").find((l) => l.error_code === "key_quota_exceeded")!;
    expect(refusal.caller).toBe(callerFingerprint("sk-rpm"));
    expect(refusal.status).toBe(429);
    expect(JSON.stringify(g!.logs)).not.toContain("sk-rpm");
    // Another key is not affected.
    expect((await chat("sk-free")).status).toBe(200);
    // The next minute opens a new window.
    g!.gw.ctx.now = () => NOW + 30_000;
    expect((await chat("sk-rpm")).status).toBe(200);
  });

  test("tokens per day: past the budget 429 with Retry-After to UTC midnight; raising it through PUT /admin/keys applies at once", async () => {
    await gateway({ api_keys: [{ key: "sk-tpd", name: "daily", quota: { tokens_per_day: 1 } }] });
    const first = await chat("sk-tpd");
    expect(first.status).toBe(200);
    await first.json();
    expect(await eventually(() => requestLines().length === 1)).toBe(true);
    const refused = await chat("sk-tpd");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("43170");
    expect((await refused.json()).error.code).toBe("key_quota_exceeded");

    const put = await admin("PUT", "/admin/keys/sk-tpd", { quota: { tokens_per_day: 1_000_000 } });
    expect(put.status).toBe(200);
    expect((await chat("sk-tpd")).status).toBe(200);
    expect(g!.gw.ctx.config.get().api_keys?.[0]).toMatchObject({ key: "sk-tpd", name: "daily", quota: { tokens_per_day: 1_000_000 } });
    // null removes the quota; a malformed one is 400 and changes nothing.
    expect((await admin("PUT", "/admin/keys/sk-tpd", { quota: { tokens_per_day: -5 } })).status).toBe(400);
    expect((await admin("PUT", "/admin/keys/sk-tpd", { quota: null })).status).toBe(200);
    expect(g!.gw.ctx.config.get().api_keys?.[0]?.quota).toBeUndefined();
  });

  test("POST /admin/keys takes a quota; the config schema bounds it", async () => {
    await gateway({ keys: ["sk-old"] });
    const ok = await admin("POST", "/admin/keys", { key: "sk-new", quota: { requests_per_minute: 1 } });
    expect(ok.status).toBe(200);
    expect((await chat("sk-new")).status).toBe(200);
    expect((await chat("sk-new")).status).toBe(429);
    const tooBig = await admin("POST", "/admin/keys", { key: "sk-huge", quota: { requests_per_minute: 10_000_000 } });
    expect(tooBig.status).toBe(400);
    expect((await tooBig.json()).detail).toContain("requests_per_minute");
  });

  test("GET /admin/config shows quotas and a POST of that view keeps them; a keys-only POST keeps them too", async () => {
    await gateway({ api_keys: [{ key: "sk-q", name: "q", quota: { requests_per_minute: 7 } }] });
    const view = await (await admin("GET", "/admin/config")).json();
    expect(view.api_keys).toEqual([{ key: "sk-q", name: "q", remark: "", quota: { requests_per_minute: 7 } }]);
    expect((await admin("POST", "/admin/config", { api_keys: view.api_keys })).status).toBe(200);
    expect(g!.gw.ctx.config.get().api_keys?.[0]?.quota).toEqual({ requests_per_minute: 7 });
    expect((await admin("POST", "/admin/config", { keys: ["sk-q", "sk-other"] })).status).toBe(200);
    expect(g!.gw.ctx.config.get().api_keys?.find((r) => r.key === "sk-q")?.quota).toEqual({ requests_per_minute: 7 });
  });
});
