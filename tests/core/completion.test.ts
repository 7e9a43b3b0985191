// One completion attempt over real sockets: the joined stream over continue rounds, typed head failures,
// cancellation, the idle timeout, compression and PoW re-use.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { CoreFrame } from "../../src/core/completion";
import { CoreError } from "../../src/core/errors";
import { coreFixture, completionInput, frameBatches, loginA, readAll, reduceBody, sseBytes, type Fixture } from "./core-fixture";

let f: Fixture;
let token: string;
beforeAll(async () => {
  f = await coreFixture();
  token = await loginA(f.client);
});
afterAll(() => f.stop());

async function open(extra: Record<string, unknown> = {}) {
  const sessionId = await f.client.createSession(token);
  return f.client.completion({ ...completionInput(), token, sessionId, ...extra });
}

const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe("completion", () => {
  test("happy path: the body is core's SSE stream and the request carries all seven fields", async () => {
    f.sim.enqueue({ scenario: "no-thinking", params: { answer: "Hello from the simulator." } });
    const c = await open({ passThrough: { temperature: 0.3, unknown_field: 1 } });
    const bytes = await readAll(sseBytes(c));
    expect(text(bytes)).toStartWith("event: ready\n");
    expect(reduceBody(bytes, false).text).toBe("Hello from the simulator.");
    const rec = f.sim.requests({ path: "/api/v0/chat/completion" }).at(-1)!;
    expect(rec.pow?.valid).toBe(true);
    expect(Object.keys(rec.body).sort()).toEqual(["chat_session_id", "model_type", "parent_message_id", "prompt", "ref_file_ids", "search_enabled", "temperature", "thinking_enabled"]);
    expect(rec.body.parent_message_id).toBeNull();
    expect(c.continues()).toBe(0);
    expect(c.responseMessageId()).toBe(2);
  });

  test("continue rounds are joined: each starts with its own ready, the decoded text has nothing lost or doubled", async () => {
    f.sim.enqueue({ scenario: "incomplete-continue", params: { rounds: 2, unseen: "xy" } });
    const before = f.sim.requests({ path: "/api/v0/chat/continue" }).length;
    const c = await open();
    const bytes = await readAll(sseBytes(c));
    const raw = text(bytes);
    expect(raw.split("event: ready\n").length - 1).toBe(3);
    // Block boundaries survive: every `event: ready` line starts a block.
    expect(raw.match(/(^|\n\n)event: ready\n/g)!.length).toBe(3);
    const continues = f.sim.requests({ path: "/api/v0/chat/continue" }).slice(before);
    expect(continues.length).toBe(2);
    for (const r of continues) expect(r.body).toEqual({ chat_session_id: c.sessionId, message_id: 2, fallback_to_resume: true });
    const out = reduceBody(bytes, false);
    expect(out.text).toBe("Part one of the answer xyand part 2 xyand the end.");
    expect(out.events.filter((e) => e.type === "round").length).toBe(3);
    expect(out.events.at(-1)).toMatchObject({ type: "end", outcome: "finished" });
    expect(c.continues()).toBe(2);
  });

  test("a continue round core refuses ends the answer with that typed failure, not as if the caller had left", async () => {
    f.sim.enqueue({
      script: {
        name: "continue-refused",
        shape: "older",
        rounds: [
          { steps: [{ ready: {} }, { update_session: {} }, { snapshot: { answer: "Part one " } }, { answer: "of it" }, { status: "INCOMPLETE" }, { finish: {} }, { close: {} }] },
          { http: { status: 500, json: { code: 500, msg: "internal error" } } },
        ],
      },
    });
    const c = await open();
    const batches: CoreFrame[][] = await frameBatches(c);
    const last = batches.flat().at(-1)!;
    expect(last).toMatchObject({ event: "failure", failure: "upstream_error" });
    expect(last.data).toContain("HTTP 500");
  });

  test("silence in a continue round trips the idle timeout as that round's typed failure", async () => {
    f.sim.enqueue({
      script: {
        name: "continue-silent",
        shape: "older",
        rounds: [
          { steps: [{ ready: {} }, { update_session: {} }, { snapshot: { answer: "Part one " } }, { answer: "of it" }, { status: "INCOMPLETE" }, { finish: {} }, { close: {} }] },
          { steps: [{ ready: {} }, { update_session: {} }, { snapshot: {} }, { answer: " and" }, { sleep: 1500 }, { answer: " more" }, { close: {} }] },
        ],
      },
    });
    const c = await open({ idleTimeoutMs: 150 });
    const frames: CoreFrame[] = (await frameBatches(c)).flat();
    expect(frames.at(-1)).toMatchObject({ event: "failure", failure: "upstream_timeout" });
    expect(c.continues()).toBe(1);
    const live = () => f.sim.state().sessions.find((s) => s.id === c.sessionId)!.live;
    for (let i = 0; i < 50 && live(); i++) await Bun.sleep(10);
    expect(live()).toBe(false);
  });

  test("continue rounds stop at max_continue_rounds", async () => {
    f.sim.enqueue({ scenario: "incomplete-forever" });
    const before = f.sim.requests({ path: "/api/v0/chat/continue" }).length;
    const c = await open({ maxContinueRounds: 3 });
    const out = reduceBody(await readAll(sseBytes(c)), false);
    expect(f.sim.requests({ path: "/api/v0/chat/continue" }).length - before).toBe(3);
    expect(out.events.at(-1)).toMatchObject({ type: "end", outcome: "truncated" });
  });

  test("an HTTP 200 envelope for a foreign file id is a typed upstream_invalid_ref_file_id error", async () => {
    const e = await open({ refFileIds: ["file-not-mine"] }).catch((x) => x);
    expect(e).toBeInstanceOf(CoreError);
    expect(e.kind).toBe("upstream_invalid_ref_file_id");
    expect(e.status).toBe(200);
    expect(e.message).toContain("invalid ref file id");
  });

  test.each(["error-busy-json", "error-busy-sse"])("a busy session (%s) is a typed upstream_busy error before the stream is returned", async (scenario) => {
    f.sim.enqueue({ scenario });
    const e = await open().catch((x) => x);
    expect(e).toBeInstanceOf(CoreError);
    expect(e.kind).toBe("upstream_busy");
  });

  test("input too long in the stream head is input_exceeds_limit", async () => {
    f.sim.enqueue({ scenario: "error-input-too-long" });
    const e = await open().catch((x) => x);
    expect(e.kind).toBe("input_exceeds_limit");
  });

  test("HTTP 5xx is a typed upstream_error with the status", async () => {
    f.sim.enqueue({ scenario: "http-error", params: { status: 503 } });
    const e = await open().catch((x) => x);
    expect(e.kind).toBe("upstream_error");
    expect(e.status).toBe(503);
  });

  test("an abrupt EOF mid-answer errors the stream with a CoreError", async () => {
    f.sim.enqueue({ scenario: "eof-mid-answer" });
    const c = await open();
    const e = await readAll(sseBytes(c)).catch((x) => x);
    expect(e).toBeInstanceOf(CoreError);
    expect(e.kind).toBe("upstream_error");
  });

  test("cancelling the body aborts the core request: the simulator sees the stream end while it was slow", async () => {
    f.sim.enqueue({ scenario: "slow-tokens", params: { delay_ms: 200, first_token_ms: 0 } });
    const c = await open();
    const reader = sseBytes(c).getReader();
    await reader.read();
    const live = () => f.sim.state().sessions.find((s) => s.id === c.sessionId)!.live;
    expect(live()).toBe(true);
    await reader.cancel("client went away");
    for (let i = 0; i < 50 && live(); i++) await Bun.sleep(10);
    expect(live()).toBe(false);
  });

  test("an aborted signal aborts the core request too", async () => {
    f.sim.enqueue({ scenario: "slow-tokens", params: { delay_ms: 200, first_token_ms: 0 } });
    const ac = new AbortController();
    const c = await open({ signal: ac.signal });
    const reader = sseBytes(c).getReader();
    await reader.read();
    ac.abort();
    const live = () => f.sim.state().sessions.find((s) => s.id === c.sessionId)!.live;
    for (let i = 0; i < 50 && live(); i++) await Bun.sleep(10);
    expect(live()).toBe(false);
  });

  test("core silence beyond the idle timeout aborts the round and errors the stream with upstream_timeout", async () => {
    f.sim.enqueue({ scenario: "stall", params: { ms: 1500 } });
    const c = await open({ idleTimeoutMs: 150 });
    const started = Date.now();
    const e = await readAll(sseBytes(c)).catch((x) => x);
    expect(e).toBeInstanceOf(CoreError);
    expect(e.kind).toBe("upstream_timeout");
    expect(Date.now() - started).toBeLessThan(1200);
    const live = () => f.sim.state().sessions.find((s) => s.id === c.sessionId)!.live;
    for (let i = 0; i < 50 && live(); i++) await Bun.sleep(10);
    expect(live()).toBe(false);
  });

  test("keep-alives keep a slow stream alive under the idle timeout", async () => {
    f.sim.enqueue({ scenario: "slow-tokens", params: { first_token_ms: 600, keepalive_ms: 100, delay_ms: 0 } });
    const c = await open({ idleTimeoutMs: 300 });
    const out = reduceBody(await readAll(sseBytes(c)), false);
    expect(out.events.at(-1)).toMatchObject({ type: "end", outcome: "finished" });
  });

  test.each(["gzip", "br"] as const)("a %s-encoded stream is decoded", async (compression) => {
    f.sim.set({ compression });
    try {
      f.sim.enqueue({ scenario: "incomplete-continue" });
      const c = await open();
      expect(reduceBody(await readAll(sseBytes(c)), false).text).toBe("Part one of the answer aband the end.");
    } finally {
      f.sim.set({ compression: "none" });
    }
  });

  test("with more than 10 s left the completion's PoW answer is re-used for continue; near expiry a fresh one is solved", async () => {
    const real = await coreFixture({ clock: "real" });
    try {
      const t = await loginA(real.client);
      for (const [ttl, fresh] of [[300, 0], [5, 1]] as const) {
        real.sim.set({ powTtlS: ttl });
        real.sim.enqueue({ scenario: "incomplete-continue" });
        const issued = real.sim.state().counters.pow_issued;
        const sessionId = await real.client.createSession(t);
        const c = await real.client.completion({ ...completionInput(), token: t, sessionId });
        await readAll(sseBytes(c));
        expect([ttl, real.sim.state().counters.pow_issued - issued]).toEqual([ttl, 1 + fresh]);
        expect(real.sim.requests({ path: "/api/v0/chat/continue" }).at(-1)!.pow?.valid).toBe(true);
      }
    } finally {
      await real.stop();
    }
  });
});
