// Issue 35 target 3: a non-stream answer is collected without a ReadableStream (StagedTurn.collect). This runs
// every non-stream surface over the simulator's answers — plain, tool calls, continue rounds, content filter, and
// hostile ones (EOF mid answer and before output, error lines, HTTP errors then success, empty output, silence
// past the idle limit) — once through the old path (collectTurn over the turn's stream: `collect` answering
// null) and once through the new one, against a simulator reset to the same seed, and compares what each side
// leaves: status and body byte for byte (random ids and clocks masked), the access line, the request log's row,
// the chat history entry, core's counters (retries, sessions, deletions) and the pool's slots.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startSimGateway, type SimGateway } from "../helpers/sim-gateway";
import { StagedTurn } from "../../src/turn/staged-turn";
import type { EnqueueEntry } from "../../src/sim/types";

let gw: SimGateway;
beforeAll(async () => {
  gw = await startSimGateway({ upstream: { stream_idle_timeout_ms: 300 } });
});
afterAll(() => gw.stop());

const newCollect = StagedTurn.prototype.collect;
const ADMIN = { Authorization: "Bearer test-admin-key" };
const tools = [{ type: "function", function: { name: "get_weather", description: "Weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } }];

/** Random ids, clocks and durations masked: what is left must be the same byte for byte. */
function mask(text: string): string {
  return text
    .replace(/\b(chatcmpl|call|toolu|msg|resp|rs|fc|req|chat)([-_])[0-9A-Za-z-]{6,}/g, "$1$2X")
    .replace(/"(created|created_at|updated_at|finished_at|started_at|ts|at|createTime|completed_at)":\s*("[^"]*"|\d+(\.\d+)?)/g, '"$1":0')
    .replace(/"(duration_ms|ttfb_ms|ttft_ms|queue_ms|seq|revision|total_ms|start_ms|ms|core_first_byte_ms|first_token_ms|last_byte_ms|elapsed_ms)":\s*\d+(\.\d+)?/g, '"$1":0')
    .replace(/"responseId":"[^"]*"/g, '"responseId":"X"')
    .replace(/"(session_id|chat_session_id|instance|request_id|history_id|id)":"[^"]*"/g, '"$1":"X"');
}

interface Leftovers {
  status: number;
  body: string;
  access: string;
  row: string;
  history: string;
  counters: string;
  inflight: string;
}

async function run(mode: "old" | "new", path: string, body: unknown, entries: EnqueueEntry[]): Promise<Leftovers> {
  gw.sim.reset({ hard: true });
  for (const e of entries) gw.sim.enqueue(e);
  StagedTurn.prototype.collect = mode === "old" ? () => null : newCollect;
  const logsBefore = gw.t.logs.length;
  let r: Response;
  let text: string;
  try {
    r = await fetch(`${gw.url}${path}`, { method: "POST", headers: { ...gw.auth, "Content-Type": "application/json" }, body: JSON.stringify(body) });
    text = await r.text();
  } finally {
    StagedTurn.prototype.collect = newCollect;
  }
  // The access line is written when the response has ended; the session clean-up follows the turn.
  let access = "";
  for (let i = 0; i < 200 && !access; i++) {
    access = gw.t.logs.slice(logsBefore).find((l) => l.includes('"msg":"request"') && l.includes(path)) ?? "";
    if (!access) await Bun.sleep(5);
  }
  await Bun.sleep(30);
  const row = await (await gw.t.req("/admin/requests?limit=1", { headers: ADMIN })).json();
  const history = gw.t.built.ctx.chatHistory.items()[0];
  const c = gw.sim.state().counters as Record<string, number>;
  const counters = { completions: c.completions, continues: c.continues, pow_issued: c.pow_issued, deleted_while_live: c.deleted_while_live, busy: c.busy_rejections };
  return {
    status: r.status,
    body: mask(text),
    access: mask(access),
    row: mask(JSON.stringify((row as { items: unknown[] }).items[0])),
    history: mask(JSON.stringify(history)),
    counters: JSON.stringify(counters),
    inflight: String(gw.t.built.ctx.pool.inFlight("a@sim.test")),
  };
}

const chat = (extra: Record<string, unknown> = {}) => ({ model: "core-v4-flash", messages: [{ role: "user", content: "hello there" }], ...extra });
const cases: [string, EnqueueEntry[], Record<string, unknown>][] = [
  ["a plain answer", [], {}],
  ["a tool call", [{ scenario: "tool-call", params: { name: "get_weather", args: { city: "Paris" }, prefix: "Let me look." } }], { tools }],
  ["thinking, then the answer", [{ scenario: "thinking-answer-tip" }], { model: "core-v4-pro" }],
  ["continue rounds", [{ scenario: "incomplete-continue", params: { rounds: 2 } }], {}],
  ["content filter", [{ scenario: "content-filter" }], {}],
  ["core's body cut mid answer", [{ scenario: "eof-mid-answer", times: 5 }], {}],
  ["cut before any output, then an answer (retried in a new session)", [{ scenario: "eof-before-output", times: 1 }], {}],
  ["an error key after some text", [{ scenario: "error-key", times: 5 }], {}],
  ["an input-too-long error line", [{ scenario: "error-input-too-long", times: 5 }], {}],
  ["HTTP 502 once, then an answer", [{ scenario: "http-error", params: { status: 502 }, times: 1 }], {}],
  ["busy in the stream, then an answer", [{ scenario: "error-busy-sse", times: 1 }], {}],
  ["an empty answer every time", [{ scenario: "empty-output", times: 10 }], {}],
  ["silence past the idle limit", [{ scenario: "stall", params: { ms: 5000 }, times: 5 }], {}],
];

describe("non-stream answers: collected without a stream = through the stream", () => {
  for (const [name, entries, extra] of cases)
    test(`chat completions — ${name}`, async () => {
      const old = await run("old", "/v1/chat/completions", chat(extra), entries);
      const now = await run("new", "/v1/chat/completions", chat(extra), entries);
      expect(now).toEqual(old);
      // The run did what its name says (not two empty runs compared).
      expect(old.access).toContain('"status"');
      expect(old.row).toContain("/v1/chat/completions");
    });

  const others: [string, string, unknown][] = [
    ["messages", "/v1/messages", { model: "claude-sonnet-4-5", max_tokens: 100, messages: [{ role: "user", content: "hello there" }] }],
    ["responses", "/v1/responses", { model: "core-v4-flash", input: "hello there" }],
    ["generate content", "/v1beta/models/gemini-2.5-flash:generateContent", { contents: [{ role: "user", parts: [{ text: "hello there" }] }] }],
  ];
  for (const [name, path, body] of others)
    for (const entries of [[], [{ scenario: "eof-mid-answer", times: 5 }], [{ scenario: "tool-call", params: { name: "get_weather", args: { city: "Oslo" } } }]] as EnqueueEntry[][])
      test(`${name} — ${entries[0]?.scenario ?? "a plain answer"}`, async () => {
        const old = await run("old", path, body, entries);
        const now = await run("new", path, body, entries);
        expect(now).toEqual(old);
        expect(old.status).toBeGreaterThan(0);
      });
});

test("the old path really is the stream: with collect answering null the turn's events are read", async () => {
  let calls = 0;
  StagedTurn.prototype.collect = function (this: StagedTurn) {
    calls++;
    return newCollect.call(this);
  };
  try {
    const r = await fetch(`${gw.url}/v1/chat/completions`, { method: "POST", headers: { ...gw.auth, "Content-Type": "application/json" }, body: JSON.stringify(chat()) });
    expect(r.status).toBe(200);
    await r.text();
  } finally {
    StagedTurn.prototype.collect = newCollect;
  }
  expect(calls).toBe(1);
});

test("a client that leaves mid-answer aborts core's call and frees the slot, on both paths", async () => {
  for (const mode of ["old", "new"] as const) {
    gw.sim.reset({ hard: true });
    // Tokens a little apart: the client leaves while core is still answering.
    gw.sim.enqueue({ scenario: "slow-tokens", params: { first_token_ms: 50, delay_ms: 100 } });
    StagedTurn.prototype.collect = mode === "old" ? () => null : newCollect;
    const client = new AbortController();
    try {
      const asked = fetch(`${gw.url}/v1/chat/completions`, { method: "POST", headers: { ...gw.auth, "Content-Type": "application/json" }, body: JSON.stringify(chat()), signal: client.signal }).catch((e) => e);
      for (let i = 0; i < 200 && gw.sim.liveStreams.view().live_total === 0; i++) await Bun.sleep(5);
      expect(gw.sim.liveStreams.view().live_total).toBe(1);
      expect(gw.t.built.ctx.pool.inFlight("a@sim.test")).toBe(1);
      await Bun.sleep(150);
      client.abort();
      expect(await asked).toBeInstanceOf(Error);
      for (let i = 0; i < 200 && (gw.sim.liveStreams.view().live_total > 0 || gw.t.built.ctx.pool.inFlight("a@sim.test") > 0); i++) await Bun.sleep(5);
      expect(gw.sim.liveStreams.view().live_total).toBe(0);
      expect(gw.t.built.ctx.pool.inFlight("a@sim.test")).toBe(0);
    } finally {
      StagedTurn.prototype.collect = newCollect;
    }
  }
});
