// Issue 30 item 10 / D9.8 as amended: `upstream.total_timeout_ms` bounds the time until an answer starts
// (attempts, failover, logins, PoW, core's first token), queue waits excluded; an answer that has started is
// never cut by it. The real gateway on a socket, the simulator scripted to accept and then say nothing.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { startCoreSimulator, type CoreSimulator } from "../../src/sim/index";
import type { Config } from "../../src/config/schema";
import type { EnqueueEntry } from "../../src/sim/types";
import { eventually, startLiveGateway, type LiveGateway } from "../helpers/live-gateway";

const accounts = [
  { email: "a@deadline.test", password: "pw-a" },
  { email: "b@deadline.test", password: "pw-b" },
];
const KEY = "sk-deadline";
/** Small, so the tests end quickly; what they assert is how the request ended, never how long it took. */
const TOTAL_MS = 400;

let sim: CoreSimulator;
let gw: LiveGateway | null = null;

beforeAll(async () => {
  sim = await startCoreSimulator({ difficulty: 1, accounts });
});
afterAll(() => sim.stop());
afterEach(async () => {
  sim.reset({ hard: true });
  await gw?.stop();
  gw = null;
});

async function gateway(extra: Config = {}): Promise<LiveGateway> {
  gw = await startLiveGateway({ config: { keys: [KEY], accounts, upstream: { total_timeout_ms: TOTAL_MS }, ...extra }, coreUrl: sim.url });
  return gw;
}

function post(g: LiveGateway, path: string, body: unknown): Promise<Response> {
  return fetch(`${g.url}${path}`, { method: "POST", headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });
}

const chat = (g: LiveGateway, content: string, stream: boolean) =>
  post(g, "/v1/chat/completions", { model: "core-v4-flash-nothinking", stream, messages: [{ role: "user", content }] });

/** Core keeps the connection alive with keep-alives for a minute and never sends an answer. */
const silentFor = { sleep: { ms: 60_000, keepalive_ms: 50 } };
/** Core accepts the completion (its first, empty snapshot) and then says nothing. */
const acceptsThenSilent: EnqueueEntry = { script: { name: "accepts-then-silent", rounds: [{ steps: [{ ready: {} }, { update_session: {} }, { snapshot: {} }, silentFor, { close: {} }] }] }, times: 100 };
/** Core never gets as far as accepting: the answer cannot start. */
const neverAccepts: EnqueueEntry = { script: { name: "never-accepts", rounds: [{ steps: [{ ready: {} }, silentFor, { close: {} }] }] }, times: 100 };

const idle = (g: LiveGateway) => eventually(() => g.queue().in_use === 0 && g.queue().waiting === 0);

describe("a core that accepts the completion and never answers", () => {
  test("non-stream: 503 upstream_timeout with Retry-After, and the slot is free again", async () => {
    const g = await gateway();
    sim.enqueue(acceptsThenSilent);
    const r = await chat(g, "hang, please", false);
    expect(r.status).toBe(503);
    expect(r.headers.get("retry-after")).toBeTruthy();
    expect((await r.json()).error).toMatchObject({ code: "upstream_timeout", type: "service_unavailable_error" });
    expect(await idle(g)).toBe(true);
  });

  test("chat stream: 200, then the in-stream upstream_timeout error and [DONE]", async () => {
    const g = await gateway();
    sim.enqueue(acceptsThenSilent);
    const r = await chat(g, "hang in a stream", true);
    expect(r.status).toBe(200);
    const text = await r.text();
    const frames = text.split("\n\n").filter((f) => f.startsWith("data: ")).map((f) => f.slice(6));
    expect(frames[frames.length - 1]).toBe("[DONE]");
    expect(JSON.parse(frames[frames.length - 2]!).error).toMatchObject({ code: "upstream_timeout" });
    expect(await idle(g)).toBe(true);
    const logged = g.lines("request").find((l) => l.path === "/v1/chat/completions");
    expect(logged).toMatchObject({ status: 200, error_code: "upstream_timeout" });
  });

  test("generate-content stream: the in-stream error carries details:[{reason:'upstream_timeout'}]", async () => {
    const g = await gateway();
    sim.enqueue(acceptsThenSilent);
    const r = await post(g, "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", { contents: [{ role: "user", parts: [{ text: "hang" }] }] });
    expect(r.status).toBe(200);
    const frames = (await r.text()).split(/\r?\n\r?\n/).map((b) => /^data: (.*)$/m.exec(b)?.[1]).filter((d): d is string => d !== undefined);
    const last = JSON.parse(frames[frames.length - 1]!);
    expect(last.error).toMatchObject({ code: 503, status: "UNAVAILABLE", details: [{ reason: "upstream_timeout" }] });
  });
});

describe("a core that never accepts", () => {
  test("every account hangs: one 503 upstream_timeout for the whole failover, not one timeout per attempt", async () => {
    const g = await gateway();
    sim.enqueue(neverAccepts);
    const r = await chat(g, "nobody answers", true);
    expect(r.status).toBe(503);
    expect((await r.json()).error.code).toBe("upstream_timeout");
    expect(await idle(g)).toBe(true);
    // The accounts did nothing wrong: none is cooling down afterwards.
    expect(g.queue().cooldown_accounts).toEqual([]);
  });

  test("a hanging login counts too", async () => {
    const g = await gateway();
    sim.set({ firstByteDelayMs: 5_000 });
    try {
      const r = await chat(g, "login hangs", false);
      expect(r.status).toBe(503);
      expect((await r.json()).error.code).toBe("upstream_timeout");
      // A login cut short by the deadline is no failed login: the account is not cooling down.
      expect(g.queue().cooldown_accounts).toEqual([]);
    } finally {
      sim.set({ firstByteDelayMs: 0 });
    }
  });
});

describe("what the deadline does not cut", () => {
  test("an answer that started is never cut, however long it runs past the deadline", async () => {
    const g = await gateway();
    // The first word at once, then 12 more 100 ms apart: the answer lasts about three deadlines.
    sim.enqueue({ scenario: "slow-tokens", params: { first_token_ms: 0, delay_ms: 100, answer: "one two three four five six seven eight nine ten eleven twelve thirteen" } });
    const r = await chat(g, "a long answer", true);
    expect(r.status).toBe(200);
    const text = await r.text();
    expect(text).not.toContain("upstream_timeout");
    const content = text
      .split("\n\n")
      .filter((f) => f.startsWith("data: {"))
      .map((f) => JSON.parse(f.slice(6)).choices?.[0]?.delta?.content ?? "")
      .join("");
    expect(content).toBe("one two three four five six seven eight nine ten eleven twelve thirteen");
  });

  test("the queue wait is not counted: a request that waited longer than the deadline for a slot is served", async () => {
    const g = await gateway({ accounts: [accounts[0]!], runtime: { account_max_inflight: 1 } });
    const slow = { scenario: "slow-tokens", params: { first_token_ms: 0, delay_ms: 100, answer: "a b c d e f g h i j k l" } };
    sim.enqueue(slow);
    const first = chat(g, "holds the only slot", false);
    expect(await eventually(() => g.queue().in_use === 1)).toBe(true);
    const second = chat(g, "waits in the queue", false);
    expect(await eventually(() => g.queue().waiting === 1)).toBe(true);
    const [a, b] = await Promise.all([first, second]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect((await b.json()).choices[0].message.content.length).toBeGreaterThan(0);
  });
});
