// The simulator's non-streaming endpoints over real sockets (core-upstream §5, §12.2, §12.4, §12.10):
// logins in every identifier form, token expiry forms, both session shapes, listing and deleting
// sessions, identity header checks, compression of envelopes, and the HTTP control API.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { CoreSimulator } from "../../src/sim/index";
import { RawCore, startTestSimulator } from "../helpers/sim";

let sim: CoreSimulator;
beforeAll(async () => {
  sim = await startTestSimulator();
});
beforeEach(() => sim.reset());
afterAll(() => sim.stop());

async function loggedIn(): Promise<RawCore> {
  const c = new RawCore(sim.url);
  await c.login({ email: "a@sim.test", password: "pw", device_id: "d", os: "android" });
  return c;
}

describe("login", () => {
  test("email in any case, and mobile with or without +86 and punctuation, log in with a sim- token", async () => {
    const c = new RawCore(sim.url);
    expect((await c.login({ email: " A@Sim.Test ", password: "pw" })).data.biz_code).toBe(0);
    expect(c.token).toMatch(/^sim-[0-9a-f]{32}$/);
    for (const mobile of ["13800138000", "8613800138000", "+86 138-0013-8000"]) {
      const j = await new RawCore(sim.url).login({ mobile, area_code: null, password: "pw2" });
      expect(j.data.biz_code).toBe(0);
    }
    expect(sim.counters.logins).toBe(4);
    expect(sim.requests({ path: "/api/v0/users/login" }).map((r) => r.account)).toEqual(["a@sim.test", "+8613800138000", "+8613800138000", "+8613800138000"]);
  });

  test("wrong password and unknown account are biz_code 2 envelopes with the convention texts", async () => {
    const bad = await new RawCore(sim.url).login({ email: "a@sim.test", password: "nope" });
    expect(bad).toEqual({ code: 0, msg: "", data: { biz_code: 2, biz_msg: "wrong password", biz_data: null } });
    const unknown = await new RawCore(sim.url).login({ email: "who@sim.test", password: "pw" });
    expect(unknown.data).toMatchObject({ biz_code: 2, biz_msg: "account not found" });
    expect(sim.counters.login_failures).toBe(2);
  });

  test("open mode accepts any credentials and any bearer token", async () => {
    sim.set({ open: true });
    expect((await new RawCore(sim.url).login({ email: "x@y.z", password: "whatever" })).data.biz_code).toBe(0);
    const c = new RawCore(sim.url);
    c.token = "some-pass-through-token";
    expect((await (await c.call("/api/v0/chat_session/create", { agent: "chat" })).json()).code).toBe(0);
    expect(JSON.stringify(sim.requests())).not.toContain("some-pass-through-token");
  });

  test("addAccount makes a new account usable at runtime", async () => {
    sim.addAccount({ email: "new@sim.test", password: "n" });
    expect((await new RawCore(sim.url).login({ email: "new@sim.test", password: "n" })).data.biz_code).toBe(0);
  });
});

describe("tokens", () => {
  test("an unknown token gets the default expiry form: HTTP 401", async () => {
    const c = new RawCore(sim.url);
    c.token = "sim-bogus";
    expect((await c.call("/api/v0/chat_session/create", { agent: "chat" })).status).toBe(401);
  });

  test("each expiry form after expireTokens(account)", async () => {
    const forms: [string, number, (j: any) => void][] = [
      ["http403", 403, () => {}],
      ["code40003", 200, (j) => expect(j.code).toBe(40003)],
      ["bizMsg", 200, (j) => expect(j.data).toMatchObject({ biz_code: 40100, biz_msg: "token expired, login required" })],
      ["bizMsgZh", 200, (j) => expect(j.data.biz_msg).toBe("登录已过期")],
    ];
    for (const [form, status, check] of forms) {
      const c = await loggedIn();
      sim.set({ expiryForm: form as any });
      expect(sim.expireTokens("A@sim.test")).toBeGreaterThan(0);
      const r = await c.call("/api/v0/chat_session/create", { agent: "chat" });
      expect(r.status).toBe(status);
      check(await r.json());
    }
  });

  test("tokenTtlMs expires tokens by age on the simulator clock", async () => {
    sim.set({ tokenTtlMs: 60_000 });
    const c = await loggedIn();
    expect((await c.call("/api/v0/chat_session/create", { agent: "chat" })).status).toBe(200);
    sim.advanceClock(61_000);
    expect((await c.call("/api/v0/chat_session/create", { agent: "chat" })).status).toBe(401);
  });
});

describe("sessions", () => {
  test("create alternates the id and nested shapes per account; sessionShape pins one", async () => {
    const c = await loggedIn();
    const shapes: string[] = [];
    for (let i = 0; i < 4; i++) {
      const j = await (await c.call("/api/v0/chat_session/create", { agent: "chat" })).json();
      shapes.push(j.data.biz_data.id ? "id" : j.data.biz_data.chat_session.model_type === "default" ? "nested" : "?");
    }
    expect(new Set(shapes)).toEqual(new Set(["id", "nested"]));
    sim.set({ sessionShape: "nested" });
    const j = await (await c.call("/api/v0/chat_session/create", { agent: "chat" })).json();
    expect(j.data.biz_data.chat_session.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("fetch_page lists the account's sessions newest first; delete and delete_all remove them", async () => {
    const c = await loggedIn();
    const a = await c.session();
    const b = await c.session();
    const page = async () => (await (await c.call("/api/v0/chat_session/fetch_page?lte_cursor.pinned=false")).json()).data.biz_data;
    const p = await page();
    expect(p.has_more).toBe(false);
    expect(p.chat_sessions.slice(0, 2).map((s: any) => s.id)).toEqual([b, a]);
    expect(p.chat_sessions[0]).toMatchObject({ title_type: "SYSTEM", pinned: false });
    expect((await (await c.call("/api/v0/chat_session/delete", { chat_session_id: a })).json()).data.biz_code).toBe(0);
    expect((await page()).chat_sessions.map((s: any) => s.id)).not.toContain(a);
    expect((await (await c.call("/api/v0/chat_session/delete_all", {})).json()).code).toBe(0);
    expect((await page()).chat_sessions).toEqual([]);
    expect(sim.counters).toMatchObject({ delete_calls: 1, delete_all_calls: 1, deleted_while_live: 0 });
  });

  test("deleting a live session ends its stream abruptly and counts deleted_while_live", async () => {
    const c = await loggedIn();
    const s = await c.session();
    const r = await c.completion(s, "[[sim:slow-tokens delay_ms=30 first_token_ms=0]] go");
    const reader = r.body!.getReader();
    await reader.read();
    await c.call("/api/v0/chat_session/delete_all", {});
    let failed = false;
    try {
      while (!(await reader.read()).done) {}
    } catch {
      failed = true;
    }
    expect(failed).toBe(true);
    expect(sim.counters.deleted_while_live).toBe(1);
    expect(sim.state().sessions.find((x) => x.id === s)).toMatchObject({ live: false, deleted: true });
  });
});

describe("transport and checks", () => {
  test("GET / answers 200 with an empty body", async () => {
    const r = await fetch(`${sim.url}/`);
    expect(r.status).toBe(200);
    expect(await r.text()).toBe("");
  });

  test("requireIdentity rejects a call missing one of the four identity headers with the 400 convention", async () => {
    sim.set({ requireIdentity: true });
    const c = new RawCore(sim.url);
    const r = await c.call("/api/v0/users/login", { email: "a@sim.test", password: "pw" }, { "x-client-platform": "android", "x-client-version": "2.0.4" });
    expect(r.status).toBe(400);
    expect((await r.json()).msg).toContain("x-client-locale");
    const ok = await c.call("/api/v0/users/login", { email: "a@sim.test", password: "pw" }, { "User-Agent": "CoreApp/2.0.4 Android/35", "x-client-platform": "android", "x-client-version": "2.0.4", "x-client-locale": "zh_CN" });
    expect((await ok.json()).code).toBe(0);
    expect(sim.requests().at(-1)!.headers).toEqual({ user_agent: "CoreApp/2.0.4 Android/35", client_platform: "android", client_version: "2.0.4", client_locale: "zh_CN" });
  });

  test("compression gzip and br on envelopes (raw bytes are compressed, fetch decodes them)", async () => {
    for (const kind of ["gzip", "br"] as const) {
      sim.set({ compression: kind });
      const r = await fetch(`${sim.url}/api/v0/users/login`, { method: "POST", body: JSON.stringify({ email: "a@sim.test", password: "pw" }), decompress: false } as RequestInit);
      expect(r.headers.get("content-encoding")).toBe(kind);
      const raw = new Uint8Array(await r.arrayBuffer());
      const { gunzipSync, brotliDecompressSync } = await import("node:zlib");
      const text = (kind === "gzip" ? gunzipSync(raw) : brotliDecompressSync(raw)).toString();
      expect(JSON.parse(text).data.biz_data.user.token).toMatch(/^sim-/);
    }
  });
});

describe("control API over HTTP", () => {
  test("config, enqueue, expire-tokens, clock, accounts, requests?since and state", async () => {
    const post = (p: string, b: unknown) => fetch(`${sim.url}${p}`, { method: "POST", body: JSON.stringify(b) }).then((r) => r.json() as Promise<any>);
    expect((await post("/_sim/config", { sessionShape: "id" })).switches.sessionShape).toBe("id");
    expect((await post("/_sim/accounts", { email: "ctl@sim.test", password: "c" })).account).toBe("ctl@sim.test");
    const c = new RawCore(sim.url);
    await c.login({ email: "ctl@sim.test", password: "c" });
    const since = sim.requests().at(-1)!.seq;
    await c.session();
    const reqs = await (await fetch(`${sim.url}/_sim/requests?since=${since}`)).json();
    expect(reqs.map((r: any) => r.path)).toEqual(["/api/v0/chat_session/create"]);
    expect((await post("/_sim/enqueue", { scenario: "no-such-scenario" })).ok).toBe(false);
    expect((await post("/_sim/enqueue", { scenario: "http-429" })).ok).toBe(true);
    const before = (await post("/_sim/clock/advance", { ms: 0 })).clock;
    expect((await post("/_sim/clock/advance", { ms: 5000 })).clock).toBeCloseTo(before + 5, 3);
    expect((await post("/_sim/expire-tokens", { account: "ctl@sim.test" })).expired).toBe(1);
    const state = await (await fetch(`${sim.url}/_sim/state`)).json();
    expect(state.queued).toBe(1);
    expect(state.accounts["ctl@sim.test"].sessions).toHaveLength(1);
    expect((await post("/_sim/reset", {})).ok).toBe(true);
    expect(sim.state().queued).toBe(0);
  });
});
