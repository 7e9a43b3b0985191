// Issue 15: faults from core and clients that leave must never cost a pool slot, put a healthy account in
// cooldown, or turn into a 429 / a 500. The real gateway on a loopback port, the simulator as core.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { startCoreSimulator, type CoreSimulator } from "../../src/sim/index";
import type { Config } from "../../src/config/schema";
import { eventually, startLiveGateway, type LiveGateway } from "../helpers/live-gateway";
import type { EnqueueEntry } from "../../src/sim/types";

const accounts = [
  { email: "a@faults.test", password: "pw-a" },
  { email: "b@faults.test", password: "pw-b" },
];
const KEY = "sk-faults";

let sim: CoreSimulator;
let gw: LiveGateway | null = null;

beforeAll(async () => {
  sim = await startCoreSimulator({ difficulty: 1, accounts });
});
afterAll(() => sim.stop());
afterEach(async () => {
  sim.reset({ hard: true });
  sim.set({ firstByteDelayMs: 0 });
  await gw?.stop();
  gw = null;
});

async function gateway(extra: Config = {}, coreUrl = sim.url): Promise<LiveGateway> {
  gw = await startLiveGateway({ config: { keys: [KEY], accounts, ...extra }, coreUrl });
  return gw;
}

function chat(g: LiveGateway, content: string, opts: { stream?: boolean; signal?: AbortSignal } = {}): Promise<Response> {
  return fetch(`${g.url}/v1/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({ model: "core-v4-flash-nothinking", stream: opts.stream ?? false, messages: [{ role: "user", content }] }),
    signal: opts.signal,
  });
}

const idle = (g: LiveGateway) => eventually(() => g.queue().in_use === 0 && g.queue().waiting === 0);

/** Runs `fn` while sampling the queue: the most waiters ever seen. */
async function maxWaitingDuring<T>(g: LiveGateway, fn: () => Promise<T>): Promise<{ result: T; maxWaiting: number }> {
  let maxWaiting = 0;
  const timer = setInterval(() => (maxWaiting = Math.max(maxWaiting, g.queue().waiting)), 1);
  try {
    const result = await fn();
    return { result, maxWaiting: Math.max(maxWaiting, g.queue().waiting) };
  } finally {
    clearInterval(timer);
  }
}

describe("an empty answer from core never keeps a slot", () => {
  const faults: [string, EnqueueEntry][] = [
    ["no visible text", { scenario: "empty-output", times: 100 }],
    ["a 200 HTML page", { script: { name: "html", rounds: [{ http: { status: 200, text: "<html><body>maintenance</body></html>" } }] }, times: 100 }],
    ["200 garbage SSE", { script: { name: "garbage", rounds: [{ steps: [{ raw: "data: this is not json\n\ndata: {]\n\n" }, { eof: "clean" }] }] }, times: 100 }],
  ];
  for (const [name, entry] of faults) {
    for (const stream of [false, true]) {
      test(`${name}${stream ? " (stream)" : ""}: four answers leave in_use 0 and the next request is served`, async () => {
        const g = await gateway();
        sim.enqueue(entry);
        for (let i = 0; i < 4; i++) {
          const r = await chat(g, `empty ${i}`, { stream });
          const text = await r.text();
          if (stream && r.status === 200) expect(text).toContain("upstream_empty_output");
          else {
            expect(r.status).toBe(503);
            expect(JSON.parse(text).error.code).toBe("upstream_empty_output");
          }
        }
        expect(await idle(g)).toBe(true);
        sim.reset({ hard: true });
        const ok = await chat(g, "after the empty answers");
        expect(ok.status).toBe(200);
        expect(await idle(g)).toBe(true);
      });
    }
  }
});

describe("a client that leaves mid-answer frees its slot", () => {
  for (const stream of [false, true]) {
    test(`five ${stream ? "streaming" : "non-stream"} clients closing 0.3–0.6 s after sending: in_use 0, logged as aborted, history stopped`, async () => {
      const g = await gateway({ runtime: { account_max_inflight: 4 } });
      const started = await Promise.all(
        Array.from({ length: 5 }, async (_, i) => {
          const ac = new AbortController();
          const timer = setTimeout(() => ac.abort(), 300 + i * 60);
          try {
            const r = await chat(g, `[[sim:slow-tokens first_token_ms=50 delay_ms=40]] leaving ${i} ${"word ".repeat(60)}`, { stream, signal: ac.signal });
            await r.text();
            return "finished";
          } catch {
            return "aborted";
          } finally {
            clearTimeout(timer);
          }
        }),
      );
      expect(started).toEqual(["aborted", "aborted", "aborted", "aborted", "aborted"]);
      expect(await idle(g)).toBe(true);
      expect(await eventually(() => g.lines("request").filter((l) => l.path === "/v1/chat/completions").length === 5)).toBe(true);
      for (const line of g.lines("request").filter((l) => l.path === "/v1/chat/completions")) {
        expect(line.aborted).toBe(true);
        expect(line.status as number).toBeLessThan(500);
        expect(line.level).not.toBe("error");
      }
      expect(g.lines("unhandled error")).toEqual([]);
      expect(g.lines("core attempt failed unexpectedly")).toEqual([]);
      expect(await eventually(() => g.gw.ctx.chatHistory.items().every((h) => h.status === "stopped"))).toBe(true);
    });
  }

  test("a streaming client that leaves while deltas wait in the coalescer causes no uncaught error", async () => {
    const g = await gateway({ runtime: { account_max_inflight: 4 } });
    const uncaught: unknown[] = [];
    const onError = (e: unknown) => uncaught.push(e);
    process.on("uncaughtException", onError);
    try {
      await Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          const ac = new AbortController();
          const r = await chat(g, `[[sim:slow-tokens first_token_ms=1 delay_ms=5]] coalesce ${i} ${"tok ".repeat(200)}`, { stream: true, signal: ac.signal });
          const reader = r.body!.getReader();
          await reader.read();
          await reader.read();
          ac.abort();
          await reader.cancel().catch(() => {});
        }),
      );
      expect(await idle(g)).toBe(true);
      await Bun.sleep(120); // longer than the coalescer's 50 ms flush timer
      expect(uncaught).toEqual([]);
    } finally {
      process.off("uncaughtException", onError);
    }
  });
});

describe("a client that leaves during the login does not put the account in cooldown", () => {
  test("ten clients aborting at 0–100 ms on a fresh gateway: no cooldown, the next request is served", async () => {
    const g = await gateway();
    sim.set({ firstByteDelayMs: 200 });
    await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const ac = new AbortController();
        setTimeout(() => ac.abort(), i * 10);
        await chat(g, `login race ${i}`, { signal: ac.signal }).catch(() => {});
      }),
    );
    expect(await idle(g)).toBe(true);
    await Bun.sleep(400); // the logins themselves finish on core's side
    expect(g.queue().cooldown_accounts).toEqual([]);
    sim.set({ firstByteDelayMs: 0 });
    const r = await chat(g, "after the race");
    expect(r.status).toBe(200);
  });
});

describe("core failures answer 503 at once, never a queue wait or a 429", () => {
  const cases: [string, EnqueueEntry, string][] = [
    ["HTTP 500 with JSON", { scenario: "http-error", params: { status: 500, times: 100 }, times: 100 }, "upstream_unavailable"],
    ["HTTP 500 with HTML", { script: { name: "html500", rounds: [{ http: { status: 500, text: "<html>error</html>" } }] }, times: 100 }, "upstream_unavailable"],
    ["a connection reset before any output", { scenario: "eof-before-output", times: 100 }, "upstream_unavailable"],
  ];
  for (const [name, entry, code] of cases) {
    test(`${name}: 503 ${code} with Retry-After, nobody waits in the queue`, async () => {
      const g = await gateway({ runtime: { queue_wait_seconds: 60 } });
      sim.enqueue(entry);
      const { result: r, maxWaiting } = await maxWaitingDuring(g, () => chat(g, `failing ${name}`));
      expect(r.status).toBe(503);
      expect(r.headers.get("retry-after")).toBe("10");
      expect((await r.json()).error.code).toBe(code);
      expect(maxWaiting).toBe(0);
      expect(await idle(g)).toBe(true);
      expect(g.queue().cooldown_accounts).toEqual([]);
    });
  }

  test("core hanging before its first byte: 503 upstream_timeout after the idle timeout, no queue wait", async () => {
    const g = await gateway({ runtime: { queue_wait_seconds: 60 }, upstream: { stream_idle_timeout_ms: 300 } });
    sim.enqueue({ script: { name: "hang", rounds: [{ steps: [{ ready: {} }, { sleep: 3000 }, { eof: "clean" }] }] }, times: 100 });
    const { result: r, maxWaiting } = await maxWaitingDuring(g, () => chat(g, "hang"));
    expect(r.status).toBe(503);
    expect((await r.json()).error.code).toBe("upstream_timeout");
    expect(maxWaiting).toBe(0);
    expect(await idle(g)).toBe(true);
  });

  test("core down: 503 upstream_unavailable, and the accounts are not put in login cooldown", async () => {
    const dead = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    const deadUrl = `http://127.0.0.1:${dead.port}`;
    dead.stop(true);
    const g = await gateway({ runtime: { queue_wait_seconds: 60 } }, deadUrl);
    const { result: r, maxWaiting } = await maxWaitingDuring(g, () => chat(g, "core is down"));
    expect(r.status).toBe(503);
    expect((await r.json()).error.code).toBe("upstream_unavailable");
    expect(maxWaiting).toBe(0);
    expect(g.queue().cooldown_accounts).toEqual([]);
  });

  test("every login rejected: 503 upstream_auth_failed at once, and again at once while the accounts cool down", async () => {
    const g = await gateway({ runtime: { queue_wait_seconds: 60 }, accounts: accounts.map((a) => ({ ...a, password: "wrong" })) });
    for (let i = 0; i < 2; i++) {
      const { result: r, maxWaiting } = await maxWaitingDuring(g, () => chat(g, `bad logins ${i}`));
      expect(r.status).toBe(503);
      expect(r.headers.get("retry-after")).toBe("10");
      expect((await r.json()).error.code).toBe("upstream_auth_failed");
      expect(maxWaiting).toBe(0);
    }
    expect(g.queue().cooldown_accounts.length).toBe(2);
    expect(await idle(g)).toBe(true);
  });
});

describe("errors after the stream started use listed codes and the gateway's own words", () => {
  test("messages stream: an empty answer after the retry is an api_error upstream_empty_output", async () => {
    const g = await gateway();
    sim.enqueue({ scenario: "empty-output", times: 100 });
    const r = await fetch(`${g.url}/msgapi/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": KEY, "anthropic-version": "2023-06-01", "Content-Type": "application/json" },
      body: JSON.stringify({ model: "core-v4-flash-nothinking", max_tokens: 100, stream: true, messages: [{ role: "user", content: "empty" }] }),
    });
    const text = await r.text();
    const error = text.split("\n\n").find((b) => b.startsWith("event: error"))!;
    expect(JSON.parse(error.slice(error.indexOf("data: ") + 6)).error).toMatchObject({ type: "api_error", code: "upstream_empty_output" });
    expect(await idle(g)).toBe(true);
  });

  test("a connection cut mid-answer: upstream_unavailable, no runtime text", async () => {
    const g = await gateway();
    sim.enqueue({ scenario: "eof-mid-answer", times: 100 });
    const r = await chat(g, "cut", { stream: true });
    const text = await r.text();
    const error = text.split("\n\n").map((b) => b.slice(6)).find((d) => d.includes('"error"'))!;
    const body = JSON.parse(error).error;
    expect(body.code).toBe("upstream_unavailable");
    expect(body.type).toBe("service_unavailable_error");
    expect(body.message).not.toMatch(/verbose|socket|ECONN|fetch/i);
    expect(await idle(g)).toBe(true);
  });
});
