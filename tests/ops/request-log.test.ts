// The request log (issue 31) on the real gateway and simulator: every kind of answer is a row with its fields
// and timeline, found by the X-Request-Id its client saw, filtered and paged through GET /admin/requests.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { CoreSimulator } from "../../src/sim/index";
import { callerFingerprint } from "../../src/util/hash";
import { startTestSimulator } from "../helpers/sim";
import { eventually, startLiveGateway, type LiveGateway } from "../helpers/live-gateway";

const KEY = "sk-reqlog-secret-key-1";
const LIMITED = "sk-reqlog-limited-key-2";
const ADMIN = { Authorization: "Bearer live-admin-key" };
let sim: CoreSimulator;
let g: LiveGateway;

function chat(key: string | null, body: Record<string, unknown>, init: RequestInit = {}): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": "application/json", "User-Agent": "reqlog-test/1.0" };
  if (key) headers.Authorization = `Bearer ${key}`;
  return fetch(`${g.url}/v1/chat/completions`, { method: "POST", headers, body: JSON.stringify({ model: "core-v4-flash", messages: [{ role: "user", content: "hello log" }], ...body }), ...init });
}

async function list(query = ""): Promise<{ items: any[]; next_cursor: string | null }> {
  const r = await fetch(`${g.url}/admin/requests${query}`, { headers: ADMIN });
  expect(r.status).toBe(200);
  return r.json();
}

async function one(id: string): Promise<any> {
  const r = await fetch(`${g.url}/admin/requests/${encodeURIComponent(id)}`, { headers: ADMIN });
  expect(r.status).toBe(200);
  return r.json();
}

const ids: Record<string, string> = {};
const bodies: Record<string, string> = {};

beforeAll(async () => {
  sim = await startTestSimulator({ accounts: [{ email: "alice@sim.test", password: "pw" }] });
  g = await startLiveGateway({
    config: {
      api_keys: [
        { key: KEY, name: "team-log" },
        { key: LIMITED, name: "limited", quota: { requests_per_minute: 1 } },
      ],
      accounts: [{ email: "alice@sim.test", password: "pw" }],
    },
    coreUrl: sim.url,
  });
  const keep = async (name: string, r: Promise<Response>) => {
    const res = await r;
    ids[name] = res.headers.get("x-request-id")!;
    bodies[name] = await res.text().catch(() => "");
    return res.status;
  };
  expect(await keep("ok", chat(KEY, {}))).toBe(200);
  expect(await keep("stream", chat(KEY, { stream: true }))).toBe(200);
  expect(await keep("badModel", chat(KEY, { model: "no-such-model-xyz" }))).toBe(400);
  expect(await keep("noKey", chat(null, {}))).toBe(401);
  expect(await keep("quota1", chat(LIMITED, {}))).toBe(200);
  expect(await keep("quota2", chat(LIMITED, {}))).toBe(429);
  expect(await keep("unknown", fetch(`${g.url}/no-such-path`, { headers: { "X-Request-Id": "client-chosen-id-123" } }))).toBe(404);
  // A streaming client that leaves after its first bytes.
  const ac = new AbortController();
  const r = await chat(KEY, { stream: true, messages: [{ role: "user", content: `[[sim:slow-tokens first_token_ms=10 delay_ms=100]] ${"word ".repeat(40)}` }] }, { signal: ac.signal });
  ids.aborted = r.headers.get("x-request-id")!;
  const reader = r.body!.getReader();
  await reader.read();
  ac.abort();
  await reader.cancel().catch(() => {});
  expect(await eventually(() => g.lines("request").some((l) => l.request_id === ids.aborted))).toBe(true);
});

afterAll(async () => {
  await g.stop();
  await sim.stop();
});

describe("GET /admin/requests/{request_id}", () => {
  test("a non-stream answer: key name and fingerprint, caller kind, models, tokens, masked account, a full timeline", async () => {
    const row = await one(ids.ok!);
    expect(row.request_id).toBe(ids.ok);
    expect(row).toMatchObject({
      status: 200,
      surface: "chat",
      route: "/v1/chat/completions",
      method: "POST",
      key_name: "team-log",
      key_fp: callerFingerprint(KEY),
      caller_kind: "managed",
      model: "core-v4-flash",
      stream: false,
      error_code: "",
      aborted: false,
      account: "al***@sim.test",
      user_agent: "reqlog-test/1.0",
      client_ip: "127.0.0.1",
    });
    expect(row.resolved_model).not.toBe("");
    expect(row.input_tokens).toBeGreaterThan(0);
    expect(row.output_tokens).toBeGreaterThan(0);
    expect(row.attempts).toEqual({ accounts: 1, core_attempts: 1, empty_output_retries: 0, continue_rounds: 0 });
    const t = row.timeline;
    for (const phase of ["queue", "login", "session", "pow"]) {
      expect(t[phase].ms).toBeGreaterThanOrEqual(0);
      expect(t[phase].start_ms).toBeGreaterThanOrEqual(0);
    }
    // The phases happen in this order: the lease before the login, the login before session and PoW, those before core answers.
    expect(t.login.start_ms).toBeGreaterThanOrEqual(t.queue.start_ms + t.queue.ms - 0.2);
    expect(t.session.start_ms).toBeGreaterThanOrEqual(t.login.start_ms + t.login.ms - 0.2);
    expect(t.core_first_byte_ms).toBeGreaterThanOrEqual(t.pow.start_ms + t.pow.ms - 0.2);
    expect(t.first_token_ms).toBeGreaterThanOrEqual(t.core_first_byte_ms);
    expect(t.last_byte_ms).toBeGreaterThanOrEqual(t.first_token_ms);
    expect(t.total_ms).toBeGreaterThanOrEqual(t.last_byte_ms);
    expect(row.links.conversation).toBe(row.history_id);
    expect(row.history_id).not.toBe("");
  });

  test("a stream, a refused model, a missing key, a quota 429, an unknown path and a client that left", async () => {
    const stream = await one(ids.stream!);
    expect(stream).toMatchObject({ status: 200, stream: true, caller_kind: "managed" });
    expect(stream.ttft_ms).toBeGreaterThan(0);
    expect(await one(ids.badModel!)).toMatchObject({ status: 400, error_code: "model_not_found", model: "no-such-model-xyz", resolved_model: "" });
    expect(await one(ids.noKey!)).toMatchObject({ status: 401, error_code: "missing_credentials", key_name: "", caller_kind: "" });
    expect(await one(ids.quota2!)).toMatchObject({ status: 429, error_code: "key_quota_exceeded", key_name: "limited" });
    expect(await one("client-chosen-id-123")).toMatchObject({ status: 404, surface: "unknown", route: "" });
    const left = await one(ids.aborted!);
    expect(left.aborted).toBe(true);
    expect(left.stream).toBe(true);
  });

  test("a refused request (400, 401, 429) keeps the message its client got, and no conversation: Conversations records turns (D12.2)", async () => {
    const history = await (await fetch(`${g.url}/admin/chat-history`, { headers: ADMIN })).json();
    for (const name of ["badModel", "noKey", "quota2"]) {
      const row = await one(ids[name]!);
      const sent = JSON.parse(bodies[name]!).error.message as string;
      expect(sent.length).toBeGreaterThan(0);
      expect(row.error_message).toBe(sent);
      expect(row.history_id).toBe("");
    }
    expect(history.items.some((h: { model: string }) => h.model === "no-such-model-xyz")).toBe(false);
    // The answered request is in both, linked by its history id.
    const ok = await one(ids.ok!);
    expect(ok.error_message).toBe("");
    expect(history.items.map((h: { id: string }) => h.id)).toContain(ok.history_id);
  });

  test("an id nobody logged is a 404; the full key appears in no row", async () => {
    const r = await fetch(`${g.url}/admin/requests/req_never_seen`, { headers: ADMIN });
    expect(r.status).toBe(404);
    const all = JSON.stringify(await list("?limit=500"));
    expect(all).not.toContain(KEY);
    expect(all).not.toContain(LIMITED);
    expect(all).not.toContain("alice@sim.test");
  });
});

describe("GET /admin/requests filters and pages", () => {
  test("status class, exact status, error code, key, model, surface, account, id text", async () => {
    // The admin calls of these tests (a 404 among them) are logged too; the business traffic is what is checked.
    const idsOf = async (q: string) => (await list(q)).items.filter((r) => r.surface !== "admin").map((r) => r.request_id).sort();
    expect(await idsOf("?status=4xx")).toEqual([ids.badModel, ids.noKey, ids.quota2, "client-chosen-id-123"].sort());
    expect(await idsOf("?status=429")).toEqual([ids.quota2]);
    expect(await idsOf("?error_code=model_not_found")).toEqual([ids.badModel]);
    expect(await idsOf("?key=limited")).toEqual([ids.quota1, ids.quota2].sort());
    expect(await idsOf(`?key=${callerFingerprint(LIMITED)}&status=2xx`)).toEqual([ids.quota1]);
    expect(await idsOf("?model=no-such-model-xyz")).toEqual([ids.badModel]);
    expect(await idsOf("?surface=unknown")).toEqual(["client-chosen-id-123"]);
    expect((await idsOf("?account=al***@sim.test")).length).toBeGreaterThanOrEqual(4);
    expect(await idsOf("?q=chosen-id")).toEqual(["client-chosen-id-123"]);
    expect(await idsOf(`?from=${Date.now() + 60_000}`)).toEqual([]);
  });

  test("cursor pagination walks every row once, newest first", async () => {
    const all = (await list("?limit=500")).items;
    expect(all.filter((r) => r.surface !== "admin").length).toBe(8);
    const seen: string[] = [];
    let cursor: string | null = "";
    while (cursor !== null) {
      const page: { items: any[]; next_cursor: string | null } = await list(`?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.items.map((r) => r.request_id));
      cursor = page.next_cursor;
    }
    expect(seen).toEqual(all.map((r) => r.request_id));
    expect(all.map((r) => r.seq)).toEqual([...all.map((r) => r.seq)].sort((a, b) => b - a));
  });

  test("bad filters are 400 in the admin shape", async () => {
    for (const q of ["?status=abc", "?limit=0", "?cursor=x", "?from=yesterday"]) {
      const r = await fetch(`${g.url}/admin/requests${q}`, { headers: ADMIN });
      expect(r.status).toBe(400);
      expect(typeof (await r.json()).detail).toBe("string");
    }
    expect((await fetch(`${g.url}/admin/requests`)).status).toBe(401);
  });
});

describe("traffic and usage series from the request log", () => {
  test("GET /admin/traffic: counts, error rate, TTFT and queue percentiles, tokens, one state per account", async () => {
    const r = await fetch(`${g.url}/admin/traffic`, { headers: ADMIN });
    expect(r.status).toBe(200);
    const t = await r.json();
    const business = (await list("?limit=500")).items.filter((x) => x.surface !== "admin");
    const hour = t.last_hour;
    expect(hour.requests).toBeGreaterThanOrEqual(business.length);
    expect(hour.status["4xx"]).toBeGreaterThanOrEqual(4);
    // The 429 is the only error of this traffic (a client that left is not one, nor a 400/401/404).
    expect(hour.errors).toBe(1);
    expect(hour.ttft_ms.p50).toBeGreaterThan(0);
    expect(hour.ttft_ms.p95).toBeGreaterThanOrEqual(hour.ttft_ms.p50);
    expect(hour.queue_ms.p50).toBeGreaterThanOrEqual(0);
    expect(hour.input_tokens).toBe(business.reduce((n, x) => n + (x.input_tokens ?? 0), 0));
    expect(t.last_day.requests).toBe(hour.requests);
    expect(t.accounts).toEqual([{ label: "al***@sim.test", in_flight: 0, state: "available" }]);
    expect(t.pool).toEqual({ available: 1, in_use: 0, cooling_down: 0, login_failed: 0, total: 1, waiting: 0 });
  });

  test("GET /admin/usage/series: hour buckets by key and model, CSV export", async () => {
    const r = await fetch(`${g.url}/admin/usage/series?bucket=hour&group_by=key`, { headers: ADMIN });
    expect(r.status).toBe(200);
    const body = await r.json();
    const byKey = (name: string) => body.rows.filter((x: { group: string }) => x.group === name).reduce((n: number, x: { requests: number }) => n + x.requests, 0);
    expect(byKey("limited")).toBe(2);
    expect(byKey("team-log")).toBe(4);
    expect(body.rows.every((x: { bucket: string }) => x.bucket.endsWith(":00:00.000Z"))).toBe(true);
    const csv = await fetch(`${g.url}/admin/usage/series?bucket=day&group_by=model&format=csv`, { headers: ADMIN });
    expect(csv.headers.get("content-type")).toStartWith("text/csv");
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe("bucket,group,requests,errors,input_tokens,output_tokens");
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect((await fetch(`${g.url}/admin/usage/series?bucket=week`, { headers: ADMIN })).status).toBe(400);
  });
});

describe("attempts in the row", () => {
  test("an empty output retried once, and an answer core finished in continue rounds, are counted", async () => {
    sim.enqueue({ scenario: "empty-output", params: { times: 1 } });
    const retried = await chat(KEY, { messages: [{ role: "user", content: "empty first" }] });
    expect(retried.status).toBe(200);
    await retried.text();
    const row = await one(retried.headers.get("x-request-id")!);
    expect(row.attempts).toMatchObject({ accounts: 2, core_attempts: 2, empty_output_retries: 1 });
    // The retry's lease is timed into the same queue phase, which starts with the first lease.
    expect(row.timeline.queue.start_ms).toBeLessThan(row.timeline.session.start_ms);

    sim.enqueue({ scenario: "incomplete-continue", params: { times: 1 } });
    const continued = await chat(KEY, { messages: [{ role: "user", content: "continue me" }] });
    expect(continued.status).toBe(200);
    await continued.text();
    const c = await one(continued.headers.get("x-request-id")!);
    expect(c.attempts.continue_rounds).toBeGreaterThanOrEqual(1);
    expect(c.attempts.empty_output_retries).toBe(0);
  });
});
