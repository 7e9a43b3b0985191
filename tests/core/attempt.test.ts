// The per-account retry loop over real sockets: busy and HTTP 5xx retries with backoff, fresh PoW and new
// sessions, one re-login on auth expiry, and no retry for failures another attempt cannot fix.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { runAccountAttempts, startCompletion } from "../../src/core/attempt";
import { CoreError, retryable } from "../../src/core/errors";
import type { CoreFrame } from "../../src/core/completion";
import { CoreReducer } from "../../src/pipeline/core-reduce";
import type { CoreEvent } from "../../src/pipeline/types";
import { coreFixture, completionInput, frameBatches, loginA, readAll, reduceBody, sseBytes, type Fixture } from "./core-fixture";

let f: Fixture;
beforeAll(async () => {
  f = await coreFixture();
});
afterAll(() => f.stop());

function recorder() {
  const sleeps: number[] = [];
  return { sleeps, sleep: async (ms: number) => void sleeps.push(ms) };
}

const count = (path: string, since: number) => f.sim.requests({ path, since }).length;
const seq = () => f.sim.requests().at(-1)?.seq ?? 0;

describe("retryable kinds (§10.7)", () => {
  test("busy, HTTP errors, PoW and 429 retry; auth, input too long, foreign files, timeout and empty output do not", () => {
    for (const k of ["upstream_busy", "upstream_error", "upstream_pow_failed", "upstream_rate_limited"] as const) expect(retryable(k)).toBe(true);
    for (const k of ["upstream_auth", "input_exceeds_limit", "upstream_invalid_ref_file_id", "upstream_timeout", "upstream_empty_output", "login_failed"] as const) expect(retryable(k)).toBe(false);
  });
});

describe("runAccountAttempts", () => {
  test("busy twice, then accepted on the third attempt: backoff 250 × attempt, a fresh PoW and a new session each time", async () => {
    const token = await loginA(f.client);
    f.sim.enqueue({ scenario: "error-busy-json", params: { times: 2, then: "no-thinking" }, times: 3 });
    const r0 = seq();
    const { sleeps, sleep } = recorder();
    const abandoned: string[] = [];
    const c = await runAccountAttempts({ client: f.client, token, request: completionInput(), sleep, onSessionAbandoned: (id) => abandoned.push(id) });
    expect(c.attempt).toBe(3);
    expect(sleeps).toEqual([250, 500]);
    expect(count("/api/v0/chat/create_pow_challenge", r0)).toBe(3);
    expect(count("/api/v0/chat_session/create", r0)).toBe(3);
    expect(abandoned.length).toBe(2);
    expect(abandoned).not.toContain(c.sessionId);
    expect(reduceBody(await readAll(sseBytes(c)), false).events.at(-1)).toMatchObject({ type: "end", outcome: "finished" });
  });

  test("busy three times: the third failure is thrown after 3 attempts", async () => {
    const token = await loginA(f.client);
    f.sim.enqueue({ scenario: "error-busy-sse", params: { times: 3 }, times: 3 });
    const r0 = seq();
    const { sleeps, sleep } = recorder();
    const e = await runAccountAttempts({ client: f.client, token, request: completionInput(), sleep }).catch((x) => x);
    expect(e).toBeInstanceOf(CoreError);
    expect(e.kind).toBe("upstream_busy");
    expect(count("/api/v0/chat/completion", r0)).toBe(3);
    expect(sleeps).toEqual([250, 500]);
  });

  test("the session and the completion's PoW are asked side by side: the completion starts one round trip sooner", async () => {
    const token = await loginA(f.client);
    const order: string[] = [];
    let powAsked!: () => void;
    const asked = new Promise<void>((resolve) => (powAsked = resolve));
    // The real client, with its two calls watched: the session answers only once the PoW challenge was asked
    // for (or after 2 s, when the calls run one after the other).
    const client = Object.create(f.client) as typeof f.client;
    client.getPowChallenge = (...a: Parameters<typeof f.client.getPowChallenge>) => {
      order.push("pow challenge asked");
      powAsked();
      return f.client.getPowChallenge(...a);
    };
    client.createSession = async (...a: Parameters<typeof f.client.createSession>) => {
      order.push("session asked");
      await Promise.race([asked, Bun.sleep(2000)]);
      order.push("session answered");
      return f.client.createSession(...a);
    };
    const c = await runAccountAttempts({ client, token, request: completionInput() });
    expect(order.indexOf("pow challenge asked")).toBeGreaterThanOrEqual(0);
    expect(order.indexOf("pow challenge asked")).toBeLessThan(order.indexOf("session answered"));
    expect(reduceBody(await readAll(sseBytes(c)), false).events.at(-1)).toMatchObject({ type: "end", outcome: "finished" });
  });

  test("HTTP 5xx is retried in the same session (nothing started) with a fresh PoW", async () => {
    const token = await loginA(f.client);
    f.sim.enqueue({ scenario: "http-error", params: { status: 502, times: 2, then: "no-thinking" }, times: 3 });
    const r0 = seq();
    const { sleeps, sleep } = recorder();
    const c = await runAccountAttempts({ client: f.client, token, request: completionInput(), sleep });
    expect(c.attempt).toBe(3);
    expect(sleeps).toEqual([250, 500]);
    expect(count("/api/v0/chat_session/create", r0)).toBe(1);
    expect(count("/api/v0/chat/create_pow_challenge", r0)).toBe(3);
    await readAll(sseBytes(c));
  });

  test("an auth failure triggers exactly one re-login and the completion restarts from session creation", async () => {
    const token = await loginA(f.client);
    f.sim.set({ expiryForm: "code40003" });
    f.sim.expireTokens();
    let logins = 0;
    const { sleep } = recorder();
    const c = await runAccountAttempts({
      client: f.client,
      token,
      request: completionInput(),
      sleep,
      relogin: async () => {
        logins++;
        return loginA(f.client);
      },
    });
    expect(logins).toBe(1);
    expect(c.token).not.toBe(token);
    expect(c.attempt).toBe(1);
    await readAll(sseBytes(c));
    f.sim.set({ expiryForm: "http401" });
  });

  test("a second auth failure after the re-login is thrown, not retried again", async () => {
    let logins = 0;
    const e = await runAccountAttempts({
      client: f.client,
      token: "sim-not-a-valid-token",
      request: completionInput(),
      sleep: async () => {},
      relogin: async () => {
        logins++;
        return "sim-still-not-valid";
      },
    }).catch((x) => x);
    expect(logins).toBe(1);
    expect(e.kind).toBe("upstream_auth");
    expect(e.message).not.toContain("sim-still-not-valid");
  });

  test("a foreign file id is not retried", async () => {
    const token = await loginA(f.client);
    const r0 = seq();
    const e = await runAccountAttempts({ client: f.client, token, request: completionInput({ refFileIds: ["file-x"] }), sleep: async () => {} }).catch((x) => x);
    expect(e.kind).toBe("upstream_invalid_ref_file_id");
    expect(count("/api/v0/chat/completion", r0)).toBe(1);
  });

  test("an abrupt EOF before any output is retried in a new session", async () => {
    const token = await loginA(f.client);
    f.sim.enqueue({ scenario: "eof-before-output" });
    const r0 = seq();
    const c = await runAccountAttempts({ client: f.client, token, request: completionInput(), sleep: async () => {} });
    expect(c.attempt).toBe(2);
    expect(count("/api/v0/chat_session/create", r0)).toBe(2);
    await readAll(sseBytes(c));
  });

  test("aborting during the backoff stops the loop at once", async () => {
    const token = await loginA(f.client);
    f.sim.enqueue({ scenario: "http-error", params: { times: 3 }, times: 3 });
    const ac = new AbortController();
    const p = runAccountAttempts({ client: f.client, token, request: completionInput(), signal: ac.signal });
    setTimeout(() => ac.abort(new Error("client gone")), 100);
    const e = await p.catch((x) => x);
    expect(e.message).toBe("client gone");
  });
});

describe("startCompletion (the pipeline's entry point)", () => {
  test("a failure after the start becomes a typed last frame with its kind, then a clean end", async () => {
    const token = await loginA(f.client);
    f.sim.enqueue({ scenario: "stall", params: { ms: 1000 } });
    const c = await startCompletion(f.client, token, completionInput(), { signal: new AbortController().signal, idleTimeoutMs: 100 });
    const frames = (await Array.fromAsync(c.frames as unknown as AsyncIterable<CoreFrame[]>)).flat();
    expect(frames.at(-1)).toMatchObject({ event: "failure", failure: "upstream_timeout" });
    expect(reduceFrames(frames).at(-1)).toMatchObject({ type: "end", outcome: "error", code: "upstream_timeout" });
  });
});

function reduceFrames(frames: CoreFrame[]): CoreEvent[] {
  const out: CoreEvent[] = [];
  const r = new CoreReducer({ thinkingEnabled: false, stripReferenceMarkers: true });
  for (const f of frames) r.push(f, (e) => out.push(e));
  r.end((e) => out.push(e));
  return out;
}
