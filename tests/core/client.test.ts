// CoreClient's JSON calls against the simulator over real sockets: login bodies, sessions, identity headers,
// compressed answers and typed failures.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CoreError, LoginError } from "../../src/core/errors";
import { CoreClient, loginBody } from "../../src/core/client";
import { PowPool } from "../../src/core/pow/pool";
import { wireConfig } from "../helpers/wire";
import { coreFixture, loginA, type Fixture } from "./core-fixture";

let f: Fixture;
beforeAll(async () => {
  f = await coreFixture({ accounts: [{ email: "a@sim.test", password: "pw" }, { mobile: "13800138000", password: "pw2" }] });
});
afterAll(() => f.stop());

const lastLogin = () => f.sim.requests({ path: "/api/v0/users/login" }).at(-1)!;

describe("login", () => {
  test("email login sends the trimmed email and password, device_id and os", async () => {
    const token = await f.client.login({ email: "  a@sim.test ", password: " pw  ", mobile: "13800138000" });
    expect(token).toStartWith("sim-");
    expect(lastLogin().body).toEqual({ email: "a@sim.test", password: "pw", device_id: "svc-gateway", os: "android" });
  });

  test("mobile login drops the 86 prefix of a 13-digit number and sends area_code null; the account's device_id wins", async () => {
    const token = await f.client.login({ mobile: "+86 138-0013-8000", password: "pw2", device_id: "dev-7" });
    expect(token).toStartWith("sim-");
    expect(lastLogin().body).toEqual({ mobile: "13800138000", area_code: null, password: "pw2", device_id: "dev-7", os: "android" });
  });

  test("the login mobile vectors of accounts.json", async () => {
    const vectors = (await Bun.file("/work/shared/spec/vectors/accounts.json").json()).login_mobile_normalisation.vectors;
    for (const v of vectors) {
      const b = loginBody({ mobile: v.in, password: "x" }, wireConfig());
      expect({ mobile: b.mobile, area_code: b.area_code }).toEqual({ mobile: v.mobile, area_code: v.area_code });
    }
  });

  test("a wrong password is a LoginError 'rejected' carrying core's message and not the password", async () => {
    const e = await f.client.login({ email: "a@sim.test", password: "secret-wrong" }).catch((x) => x);
    expect(e).toBeInstanceOf(LoginError);
    expect(e.kind).toBe("login_failed");
    expect(e.reason).toBe("rejected");
    expect(e.message).toContain("wrong password");
    expect(e.message).not.toContain("secret-wrong");
  });

  test("an unreachable core is a LoginError 'unreachable'", async () => {
    const dead = new CoreClient(wireConfig({ request_timeout_ms: 2000 }), "http://127.0.0.1:1", new PowPool(1));
    const e = await dead.login({ email: "a@sim.test", password: "pw" }).catch((x) => x);
    expect(e).toBeInstanceOf(LoginError);
    expect(e.reason).toBe("unreachable");
  });
});

describe("sessions", () => {
  test("both create-session reply shapes give the session id", async () => {
    const token = await loginA(f.client);
    f.sim.set({ sessionShape: "id" });
    const a = await f.client.createSession(token);
    f.sim.set({ sessionShape: "nested" });
    const b = await f.client.createSession(token);
    f.sim.set({ sessionShape: "alternate" });
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(b).toMatch(/^[0-9a-f-]{36}$/);
    expect(a).not.toBe(b);
    expect(f.sim.requests({ path: "/api/v0/chat_session/create" }).at(-1)!.body).toEqual({ agent: "chat" });
  });

  test("list, delete one and delete all", async () => {
    const token = await f.client.login({ mobile: "13800138000", password: "pw2" });
    await f.client.deleteAllSessions(token);
    const s1 = await f.client.createSession(token);
    await f.client.createSession(token);
    expect(await f.client.listSessions(token)).toEqual({ count: 2, hasMore: false });
    await f.client.deleteSession(token, s1);
    expect(await f.client.countSessions(token)).toBe(1);
    await f.client.deleteAllSessions(token);
    expect(await f.client.countSessions(token)).toBe(0);
  });

  test("an expired token is a typed upstream_auth error in every expiry form, without the token in the message", async () => {
    for (const form of ["http401", "http403", "code40003", "bizMsg", "bizMsgZh"] as const) {
      const token = await loginA(f.client);
      f.sim.set({ expiryForm: form });
      f.sim.expireTokens();
      const e = await f.client.createSession(token).catch((x) => x);
      expect(e).toBeInstanceOf(CoreError);
      expect([form, e.kind]).toEqual([form, "upstream_auth"]);
      expect(e.message).not.toContain(token);
    }
    f.sim.set({ expiryForm: "http401" });
  });
});

describe("transport", () => {
  test("identity headers come from the configuration on every call", async () => {
    const custom = new CoreClient(wireConfig({ user_agent: "CoreApp/9.9 Android/40", client_version: "9.9", client_platform: "ios", client_locale: "en_US" }), f.sim.url, f.pool);
    const since = f.sim.requests().at(-1)?.seq ?? 0;
    const token = await custom.login({ email: "a@sim.test", password: "pw" });
    await custom.createSession(token);
    const recs = f.sim.requests({ since });
    expect(recs.length).toBe(2);
    for (const r of recs) expect(r.headers).toEqual({ user_agent: "CoreApp/9.9 Android/40", client_platform: "ios", client_version: "9.9", client_locale: "en_US" });
    expect(recs[0]!.body.os).toBe("ios");
  });

  test.each(["gzip", "br"] as const)("%s-encoded JSON answers are decoded", async (compression) => {
    f.sim.set({ compression });
    try {
      const token = await loginA(f.client);
      expect(await f.client.createSession(token)).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      f.sim.set({ compression: "none" });
    }
  });

  test("a call slower than request_timeout_ms fails as upstream_error", async () => {
    const slow = new CoreClient(wireConfig({ request_timeout_ms: 100 }), f.sim.url, f.pool);
    f.sim.set({ firstByteDelayMs: 400 });
    try {
      const e = await slow.login({ email: "a@sim.test", password: "pw" }).catch((x) => x);
      expect(e).toBeInstanceOf(LoginError);
      expect(e.message).toContain("did not answer within 100 ms");
    } finally {
      f.sim.set({ firstByteDelayMs: 0 });
    }
  });

  test("a streaming call given its own controller: the head deadline aborts that controller and is a timeout, not an abort", async () => {
    const slow = new CoreClient(wireConfig({ request_timeout_ms: 100 }), f.sim.url, f.pool);
    f.sim.set({ firstByteDelayMs: 400 });
    try {
      const controller = new AbortController();
      const e = await slow.fetch({ method: "GET", path: "/api/v0/users/current", controller, timeoutMs: 0 }).catch((x) => x);
      expect(e).toBeInstanceOf(CoreError);
      expect(e.message).toContain("did not answer within 100 ms");
      expect(controller.signal.aborted).toBe(true);
    } finally {
      f.sim.set({ firstByteDelayMs: 0 });
    }
  });

  test("a streaming call given its own controller: aborting it ends the call with the caller's reason", async () => {
    f.sim.set({ firstByteDelayMs: 400 });
    try {
      const controller = new AbortController();
      const call = f.client.fetch({ method: "GET", path: "/api/v0/users/current", controller, timeoutMs: 0 });
      const reason = new DOMException("client went away", "AbortError");
      setTimeout(() => controller.abort(reason), 20);
      expect(await call.catch((x) => x)).toBe(reason);
    } finally {
      f.sim.set({ firstByteDelayMs: 0 });
    }
  });
});

describe("PoW", () => {
  test("a challenge with another algorithm label is refused, replaced once, then upstream_pow_failed", async () => {
    const token = await loginA(f.client);
    f.sim.set({ powAlgorithm: "OtherHash" });
    const before = f.sim.state().counters.pow_issued;
    try {
      const e = await f.client.solvePow(token, "/api/v0/chat/completion").catch((x) => x);
      expect(e).toBeInstanceOf(CoreError);
      expect(e.kind).toBe("upstream_pow_failed");
      expect(f.sim.state().counters.pow_issued - before).toBe(2);
    } finally {
      f.sim.set({ powAlgorithm: "CoreHashV1" });
    }
  });
});
