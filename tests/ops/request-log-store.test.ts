// The request log's file (issue 31): a real bun:sqlite file in WAL mode. A restart keeps its rows, a gateway
// killed with SIGKILL mid-traffic leaves a file that passes SQLite's integrity check, retention prunes by age
// and by rows, and a file locked by another process fails no request (the rows wait, the failure is counted).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { CoreSimulator } from "../../src/sim/index";
import { createLogger } from "../../src/util/log";
import { RequestLog } from "../../src/metering/request-log";
import type { RequestRecord } from "../../src/metering/request-record";
import { startGateway, type RunningGateway } from "../../src/server";
import { startTestSimulator } from "../helpers/sim";
import { freePort } from "../helpers/binary";
import { scratchDir } from "../helpers/scratch";

const KEY = "sk-reqlog-store";
const ADMIN = { Authorization: "Bearer store-admin-key" };
const ROOT = resolve(import.meta.dir, "../..");
const DAY = 86_400_000;
const quiet = createLogger("error", () => {});
let sim: CoreSimulator;

beforeAll(async () => {
  sim = await startTestSimulator();
});
afterAll(async () => {
  await sim.stop();
});

function record(i: number, ts: number): RequestRecord {
  return {
    ts, request_id: `req_${i}`, instance: "t", method: "POST", path: "/v1/chat/completions", route: "/v1/chat/completions", surface: "chat",
    key_name: "k", key_fp: "caller:0", caller_kind: "managed", client_ip: "127.0.0.1", user_agent: "", model: "m", resolved_model: "m",
    stream: false, status: 200, error_code: "", aborted: false, account: "", attempts: { accounts: 1, core_attempts: 1, empty_output_retries: 0, continue_rounds: 0 },
    input_tokens: 1, output_tokens: 1, reasoning_tokens: 0, duration_ms: 1, ttft_ms: 1, queue_ms: 0, timeline: { total_ms: 1 }, history_id: "", error_message: "",
  };
}

async function gatewayIn(dataDir: string): Promise<RunningGateway> {
  return startGateway({
    loaded: { config: { keys: [KEY], accounts: [{ email: "a@sim.test", password: "pw" }] }, source: "test", path: join(dataDir, "config.json"), data_dir: dataDir, env_backed: false, env_source_present: false, env_writeback_enabled: false, warnings: [] },
    log: quiet,
    port: 0,
    host: "127.0.0.1",
    env: { SVC_ADMIN_KEY: "store-admin-key", SVC_CORE_BASE_URL: sim.url },
    quiet: true,
  });
}

const chat = (url: string, content = "store me") =>
  fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({ model: "core-v4-flash", messages: [{ role: "user", content }] }),
  });

async function listed(url: string): Promise<string[]> {
  const r = await fetch(`${url}/admin/requests?limit=500&surface=chat`, { headers: ADMIN });
  expect(r.status).toBe(200);
  return ((await r.json()).items as { request_id: string }[]).map((x) => x.request_id);
}

describe("the request log file", () => {
  test("a restart keeps the rows: the same request ids are listed by the next gateway on the data directory", async () => {
    const dir = scratchDir("svc-gw-reqlog-");
    const first = await gatewayIn(dir);
    const url = `http://127.0.0.1:${first.port}`;
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await chat(url);
      expect(r.status).toBe(200);
      await r.text();
      seen.push(r.headers.get("x-request-id")!);
    }
    await first.drain();
    expect(existsSync(join(dir, "requests.sqlite"))).toBe(true);
    const second = await gatewayIn(dir);
    try {
      expect((await listed(`http://127.0.0.1:${second.port}`)).sort()).toEqual(seen.sort());
    } finally {
      await second.drain();
    }
  });

  test("SIGKILL mid-traffic: the file passes the integrity check and a restart serves what was written", async () => {
    const dir = scratchDir("svc-gw-reqlog-kill-");
    writeFileSync(join(dir, "config.json"), JSON.stringify({ keys: [KEY], accounts: [{ email: "a@sim.test", password: "pw" }] }));
    const port = await freePort();
    const proc = Bun.spawn(["bun", join(ROOT, "src/main.ts")], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "", HOME: dir, PORT: String(port), SVC_HOST: "127.0.0.1", SVC_ADMIN_KEY: "store-admin-key", SVC_CONFIG_PATH: join(dir, "config.json"), SVC_CORE_BASE_URL: sim.url, LOG_LEVEL: "error" },
      stdout: "ignore",
      stderr: "ignore",
    });
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 400; i++) {
      if (await fetch(`${url}/readyz`).then((r) => r.ok, () => false)) break;
      await Bun.sleep(50);
    }
    // Traffic that keeps going while the process dies: batches are being written when the kill lands.
    let stop = false;
    const workers = Array.from({ length: 8 }, async () => {
      while (!stop) await chat(url).then((r) => r.text(), () => null);
    });
    // Until some batches are on disk (the admin read flushes, then lists).
    for (let i = 0; i < 400 && (await listed(url).catch(() => [])).length < 20; i++) await Bun.sleep(25);
    const before = (await listed(url)).length;
    expect(before).toBeGreaterThanOrEqual(20);
    proc.kill("SIGKILL");
    await proc.exited;
    stop = true;
    await Promise.all(workers);

    const db = new Database(join(dir, "requests.sqlite"));
    expect((db.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check).toBe("ok");
    const rows = (db.query("SELECT count(*) AS n FROM requests").get() as { n: number }).n;
    db.close();
    expect(rows).toBeGreaterThanOrEqual(before);

    const again = await gatewayIn(dir);
    try {
      expect((await listed(`http://127.0.0.1:${again.port}`)).length).toBe(rows);
    } finally {
      await again.drain();
    }
  }, 60_000);

  test("a row reads back as the record it was written from, every column in its place", () => {
    const log = RequestLog.open({ path: join(scratchDir("svc-gw-reqlog-row-"), "requests.sqlite"), settings: () => ({ retentionDays: 7, maxRows: 1000 }), log: quiet, now: () => Date.now() });
    // Each column a value no other column has, so a value bound to the wrong column would show.
    const rec: RequestRecord = {
      ...record(1, Date.now()), request_id: "req_cols", instance: "inst", method: "PUT", path: "/p?x=***", route: "/r", surface: "messages",
      key_name: "kn", key_fp: "caller:ff", caller_kind: "passthrough", client_ip: "10.1.2.3", user_agent: "ua/9", model: "mo", resolved_model: "rm",
      stream: true, status: 418, error_code: "ec", aborted: true, account: "ac***", attempts: { accounts: 2, core_attempts: 3, empty_output_retries: 4, continue_rounds: 5 },
      input_tokens: 11, output_tokens: 12, reasoning_tokens: null, duration_ms: 13, ttft_ms: 14.5, queue_ms: null, timeline: { total_ms: 15.5, first_token_ms: 14.5 },
      history_id: "chat_1", error_message: "why",
    };
    log.add(rec);
    expect(log.flushNow()).toBe(true);
    const [row] = log.byId("req_cols");
    const { seq, ...stored } = row!;
    expect(seq).toBe(1);
    expect(stored).toEqual(rec);
    log.close();
  });

  test("retention: rows older than retention_days and beyond max_rows (oldest first) are pruned", () => {
    let now = Date.UTC(2026, 5, 10);
    const settings = { retentionDays: 7, maxRows: 1000 };
    const log = RequestLog.open({ path: join(scratchDir("svc-gw-reqlog-prune-"), "requests.sqlite"), settings: () => settings, log: quiet, now: () => now });
    for (let i = 0; i < 10; i++) log.add(record(i, now - 8 * DAY));
    for (let i = 10; i < 1210; i++) log.add(record(i, now - DAY + i));
    expect(log.flushNow()).toBe(true);
    const count = () => (log.db.query("SELECT count(*) AS n FROM requests").get() as { n: number }).n;
    expect(count()).toBe(1210);
    log.prune();
    expect(count()).toBe(1000);
    const ids = log.query({ limit: 500 }).items.map((r) => r.request_id);
    expect(ids[0]).toBe("req_1209");
    expect(log.byId("req_209")).toEqual([]);
    expect(log.byId("req_210").length).toBe(1);
    // A day later the whole window has moved past the rest.
    now += 7 * DAY;
    log.prune();
    expect(count()).toBe(0);
    log.close();
  });

  test("a file another process holds locked fails no request: rows wait, the failure is counted, then written", async () => {
    const dir = scratchDir("svc-gw-reqlog-lock-");
    const gw = await gatewayIn(dir);
    const url = `http://127.0.0.1:${gw.port}`;
    const log = gw.ctx.ops!.requestLog!;
    const locker = new Database(join(dir, "requests.sqlite"));
    locker.exec("PRAGMA busy_timeout = 0");
    locker.exec("BEGIN EXCLUSIVE");
    try {
      const r = await chat(url);
      expect(r.status).toBe(200);
      await r.text();
      expect(log.pendingCount()).toBeGreaterThanOrEqual(1);
      expect(log.flushNow()).toBe(false);
      expect(log.counters.failures).toBeGreaterThanOrEqual(1);
      const again = await chat(url);
      expect(again.status).toBe(200);
      await again.text();
    } finally {
      locker.exec("COMMIT");
      locker.close();
    }
    expect(log.flushNow()).toBe(true);
    expect((await listed(url)).length).toBe(2);
    await gw.drain();
  });

  test("an idle gateway on a fresh data directory never opens the file: not at ready, not by the retention pass", async () => {
    const dir = scratchDir("svc-gw-reqlog-idle-");
    const gw = await gatewayIn(dir);
    try {
      const r = await fetch(`http://127.0.0.1:${gw.port}/readyz`);
      expect(r.status).toBe(200);
      // The minute's retention pass (issue 35: idle RSS).
      gw.ctx.ops!.requestLog!["pruneTick"]();
      expect(existsSync(join(dir, "requests.sqlite"))).toBe(false);
      // The first row opens it, as before.
      const c = await chat(`http://127.0.0.1:${gw.port}`);
      expect(c.status).toBe(200);
      await c.text();
      expect(gw.ctx.ops!.requestLog!.flushNow()).toBe(true);
      expect(existsSync(join(dir, "requests.sqlite"))).toBe(true);
    } finally {
      await gw.drain();
    }
  });

  test("the retention pass opens and prunes a file an earlier run left, though no request came yet", () => {
    const path = join(scratchDir("svc-gw-reqlog-old-"), "requests.sqlite");
    const now = Date.now();
    const settings = { retentionDays: 7, maxRows: 1000 };
    const earlier = RequestLog.open({ path, settings: () => settings, log: quiet, now: () => now });
    earlier.add(record(1, now - 30 * DAY));
    earlier.add(record(2, now - DAY));
    expect(earlier.flushNow()).toBe(true);
    earlier.close();
    const log = RequestLog.open({ path, settings: () => settings, log: quiet, now: () => now, defer: true });
    log["pruneTick"]();
    expect(log.byId("req_1")).toEqual([]);
    expect(log.byId("req_2").length).toBe(1);
    log.close();
  });

  test("reads: the file's go through the reader thread, an in-memory log's run in place; both see the rows just written", async () => {
    const settings = { retentionDays: 7, maxRows: 1000 };
    const now = Date.now();
    for (const path of [join(scratchDir("svc-gw-reqlog-read-"), "requests.sqlite"), null]) {
      const log = RequestLog.open({ path, settings: () => settings, log: quiet, now: () => now });
      expect(log.location).toBe(path ?? ":memory:");
      for (let i = 0; i < 5; i++) log.add(record(i, now - i));
      await log.fresh();
      const page = await log.read<{ items: RequestRecord[] }>("query", { limit: 3 });
      expect(page.items.map((r) => r.request_id)).toEqual(["req_4", "req_3", "req_2"]);
      expect((await log.read<RequestRecord[]>("byId", "req_1")).map((r) => r.status)).toEqual([200]);
      expect((await log.read<{ requests: number }>("traffic", now + 1, 60_000)).requests).toBe(5);
      // A failing read is a rejected promise, from the thread or in place alike.
      const failed = await log.read("no-such-read" as never).then(() => "resolved", (e) => `rejected: ${String(e)}`);
      expect(failed).toStartWith("rejected");
      log.close();
    }
  });
});
