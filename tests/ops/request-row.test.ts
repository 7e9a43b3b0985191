// A request's row as its response's end makes it (issue 31's cost work): built straight from the request state —
// JSON text by concatenation, numbers from integers — yet stored and read back exactly as the record it replaced;
// `request_log.enabled` followed live by a log opened at start; the WAL copied into the file by the reader thread.
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { statSync } from "node:fs";
import { join } from "node:path";
import { Ops } from "../../src/metering/ops";
import { RequestLog } from "../../src/metering/request-log";
import { recordOfRow, rowOf, toRow, type RequestRecord } from "../../src/metering/request-record";
import { RequestState } from "../../src/metering/request-state";
import { text1, Timeline } from "../../src/metering/timeline";
import { MemoryUsageStore } from "../../src/metering/usage-store";
import { createLogger } from "../../src/util/log";
import { scratchDir } from "../helpers/scratch";
import { eventually } from "../helpers/live-gateway";

const quiet = createLogger("error", () => {});
const request = { method: "POST", headers: new Headers({ "user-agent": "row-test/1.0" }) };

function chatState(id = "req_row_1"): RequestState {
  const s = new RequestState(id, "http://h/v1/chat/completions?api_key=sk-secret", "/v1/chat/completions", "?api_key=sk-secret", "chat");
  s.route = "/v1/chat/completions";
  s.model = "flash";
  s.resolvedModel = "core-v4-flash";
  s.mode = "managed";
  s.configuredKey = "caller:00000000000000aa";
  s.account = "alice@example.com";
  s.clientIp = "10.0.0.9";
  s.inputTokens = 7;
  s.outputTokens = 9;
  s.reasoningTokens = 2;
  s.historyId = "chat_000000000000000000000001";
  return s;
}

describe("text1: round1 as JSON text", () => {
  test("the same text JSON.stringify gives for the rounded value, whole numbers without a decimal point", () => {
    const samples = [0, 0.04, 0.05, 0.15, 1, 12, 12.04, 12.96, 99.95, 1234.56, 86_400_000.3];
    for (let i = 0; i < 2000; i++) samples.push(Math.random() * 10 ** (i % 7));
    for (const n of samples) expect(JSON.parse(text1(n))).toBe(Math.round(n * 10) / 10);
    expect(text1(12)).toBe("12");
    expect(text1(3.25)).toBe("3.3");
  });
});

describe("rowOf", () => {
  test("a model call: every field as the record had it, the timeline equal to toJSON's, the key in the query redacted", () => {
    const s = chatState();
    const tl = (s.timeline = new Timeline(s.start - 1));
    tl.add("queue", 0.04, 0.31);
    tl.add("queue", 2, 2.5);
    tl.add("session", 0.5, 1.23);
    tl.add("pow", 1.3, 1.71);
    tl.coreFirstByte = 2.66;
    tl.firstToken = 3.04;
    tl.lastByte = 4.96;
    tl.attempts.accounts = 2;
    tl.attempts.core_attempts = 3;
    tl.attempts.continue_rounds = 1;
    const now = Date.now();
    const rec = recordOfRow(rowOf(s, 200, request, { instance: "i:1", now, keyName: "team", surface: "chat" }));
    const { timeline, duration_ms, ts, ...rest } = rec;
    expect(rest).toEqual({
      request_id: "req_row_1", instance: "i:1", method: "POST", path: "/v1/chat/completions?api_key=***", route: "/v1/chat/completions",
      surface: "chat", key_name: "team", key_fp: "caller:00000000000000aa", caller_kind: "managed", client_ip: "10.0.0.9",
      user_agent: "row-test/1.0", model: "flash", resolved_model: "core-v4-flash", stream: false, status: 200, error_code: "",
      aborted: false, account: "al***@example.com", attempts: { accounts: 2, core_attempts: 3, empty_output_retries: 0, continue_rounds: 1 },
      input_tokens: 7, output_tokens: 9, reasoning_tokens: 2, ttft_ms: 3, queue_ms: 0.8, history_id: "chat_000000000000000000000001", error_message: "",
    });
    expect(JSON.stringify(rec)).not.toContain("sk-secret");
    expect(timeline).toEqual(tl.toJSON(timeline.total_ms));
    expect(timeline.first_token_ms).toBe(3);
    expect(timeline.queue).toEqual({ start_ms: 0, ms: 0.8 });
    expect(duration_ms).toBeGreaterThanOrEqual(0);
    expect(ts).toBe(now - duration_ms);
  });

  test("a stream with no first token marked stores its first byte; a request with no model call has an empty timeline", () => {
    const s = chatState();
    s.timeline = new Timeline(s.start);
    s.ttfbMs = 17;
    s.stream = true;
    const rec = recordOfRow(rowOf(s, 200, request, { instance: "i", now: Date.now(), keyName: "", surface: "chat" }));
    expect(rec.ttft_ms).toBe(17);
    expect(rec.timeline.first_token_ms).toBe(17);
    expect(rec.stream).toBe(true);
    expect(rec.queue_ms).toBeNull();
    const refused = new RequestState("req_row_2", "http://h/v1/chat/completions", "/v1/chat/completions", "", "chat");
    refused.errorCode = "invalid_api_key";
    const r2 = recordOfRow(rowOf(refused, 401, undefined, { instance: "i", now: Date.now(), keyName: "", surface: "chat" }));
    expect(Object.keys(r2.timeline)).toEqual(["total_ms"]);
    expect(r2.attempts).toEqual({ accounts: 0, core_attempts: 0, empty_output_retries: 0, continue_rounds: 0 });
    expect([r2.status, r2.error_code, r2.ttft_ms, r2.account, r2.method]).toEqual([401, "invalid_api_key", null, "", ""]);
  });

  test("a record and its row convert both ways unchanged (another instance's rows, a test's)", () => {
    const s = chatState();
    s.timeline = new Timeline(s.start);
    s.timeline.add("login", 1, 2);
    const rec = recordOfRow(rowOf(s, 502, request, { instance: "i", now: Date.now(), keyName: "k", surface: "chat" }));
    expect(recordOfRow(toRow(rec))).toEqual(rec as RequestRecord);
  });
});

describe("the request log in operation", () => {
  test("a log opened at start follows request_log.enabled live: off records nothing, on again records", () => {
    let config = Object.freeze({ request_log: { enabled: true } });
    const ops = new Ops(new MemoryUsageStore(), {
      version: "t", config: () => config, now: () => Date.now(),
      pool: () => ({ inUse: 0, waiting: 0, available: 0, accounts: 0, cooldown: 0, loginFailing: 0 }),
    });
    ops.requestLog = RequestLog.open({ path: null, settings: () => ({ retentionDays: 7, maxRows: 1000 }), log: quiet, now: () => Date.now() });
    const end = (id: string) => {
      const s = chatState(id);
      ops.requestEnded(s, 200, request);
    };
    end("req_on_1");
    config = Object.freeze({ request_log: { enabled: false } });
    end("req_off");
    config = Object.freeze({ request_log: { enabled: true } });
    end("req_on_2");
    ops.requestLog.flushNow();
    expect(ops.requestLog.query({ limit: 10 } as never).items.map((r) => r.request_id)).toEqual(["req_on_2", "req_on_1"]);
    ops.requestLog.close();
  });

  test("the reader thread copies the WAL into the file: rows reach requests.sqlite without the event loop's checkpoint", async () => {
    const path = join(scratchDir("svc-row-ckpt-"), "requests.sqlite");
    const log = RequestLog.open({ path, settings: () => ({ retentionDays: 7, maxRows: 100_000 }), log: quiet, now: () => Date.now() });
    const before = statSync(path).size;
    const s = chatState();
    s.timeline = new Timeline(s.start);
    // ≈ 400 pages: far below the event loop's backstop (8,000), so only the thread's checkpoint moves them.
    for (let i = 0; i < 3000; i++) log.addRow(rowOf(s, 200, request, { instance: `i${i}`, now: Date.now(), keyName: "k", surface: "chat" }));
    expect(log.flushNow()).toBe(true);
    expect(await eventually(() => statSync(path).size > before + 1_000_000, 10_000)).toBe(true);
    log.close();
  });

  test("rows written less than a second after a checkpoint reach the file too, with no write after them", async () => {
    const path = join(scratchDir("svc-row-ckpt-"), "requests.sqlite");
    const log = RequestLog.open({ path, settings: () => ({ retentionDays: 7, maxRows: 100_000 }), log: quiet, now: () => Date.now() });
    const s = chatState();
    s.timeline = new Timeline(s.start);
    const burst = (from: number) => {
      for (let i = from; i < from + 3000; i++) log.addRow(rowOf(s, 200, request, { instance: `i${i}`, now: Date.now(), keyName: "k", surface: "chat" }));
      expect(log.flushNow()).toBe(true);
    };
    burst(0);
    const first = statSync(path).size;
    expect(await eventually(() => statSync(path).size > first + 1_000_000, 10_000)).toBe(true);
    const afterFirst = statSync(path).size;
    // The second burst comes within the checkpoint's second: it is copied when that second is up.
    burst(3000);
    expect(await eventually(() => statSync(path).size > afterFirst + 1_000_000, 10_000)).toBe(true);
    expect(new Database(path, { readonly: true }).query("SELECT count(*) AS n FROM requests").get()).toEqual({ n: 6000 });
    log.close();
  });

  test("a file made before error_message existed gets the column: its old rows read as \"\", new rows keep theirs", () => {
    const path = join(scratchDir("svc-row-migrate-"), "requests.sqlite");
    const old = new Database(path, { create: true });
    old.exec(`CREATE TABLE requests (seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, request_id TEXT NOT NULL, instance TEXT NOT NULL, method TEXT,
      path TEXT, route TEXT, surface TEXT, key_name TEXT, key_fp TEXT, caller_kind TEXT, client_ip TEXT, user_agent TEXT, model TEXT,
      resolved_model TEXT, stream INTEGER, status INTEGER NOT NULL, error_code TEXT, aborted INTEGER, account TEXT, input_tokens INTEGER,
      output_tokens INTEGER, reasoning_tokens INTEGER, duration_ms INTEGER, ttft_ms REAL, queue_ms REAL, attempts TEXT, timeline TEXT, history_id TEXT)`);
    old.run("INSERT INTO requests (ts, request_id, instance, status, attempts, timeline) VALUES (?, 'req_old', 'i', 400, '{}', '{}')", [Date.now() - 1000]);
    old.close();
    const log = RequestLog.open({ path, settings: () => ({ retentionDays: 7, maxRows: 1000 }), log: quiet, now: () => Date.now() });
    const s = chatState("req_new");
    s.errorCode = "invalid_request";
    s.errorMessage = "messages must not be empty.";
    log.addRow(rowOf(s, 400, request, { instance: "i", now: Date.now(), keyName: "", surface: "chat" }));
    expect(log.flushNow()).toBe(true);
    expect(log.byId("req_old")[0]!.error_message).toBe("");
    expect(log.byId("req_new")[0]!.error_message).toBe("messages must not be empty.");
    log.close();
  });
});
