// Issue 15 item 7: routing looks at the path alone, whatever the Host header holds; a re-addressed
// request still reports its client address and still aborts when the client goes away.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startLiveGateway, TEST_ADMIN_KEY, type LiveGateway } from "../helpers/gateway";
import { openRaw, parseRaw, rawRequest } from "../helpers/raw-http";
import { startTestSimulator } from "../helpers/sim";
import type { CoreSimulator } from "../../src/sim/index";

const KEY = "sk-host-routing";
const MODEL = "core-v4-flash-nothinking";

function get(port: number, path: string, host: string) {
  return rawRequest(port, `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
}

function chatRequest(path: string, host: string, content: string, key = "any-pass-through-token"): string {
  const body = JSON.stringify({ model: MODEL, messages: [{ role: "user", content }] });
  return `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

let sim: CoreSimulator;
let g: LiveGateway;
beforeAll(async () => {
  sim = await startTestSimulator();
  g = await startLiveGateway({
    config: {
      keys: [KEY],
      accounts: [{ email: "a@sim.test", password: "pw" }],
      runtime: { account_max_inflight: 1, global_max_inflight: 1, account_max_queue: 4, queue_wait_seconds: 60 },
    },
    env: { SVC_CORE_BASE_URL: sim.url },
  });
});
afterAll(async () => {
  await g.stop();
  await sim.stop();
});

describe("routing ignores the Host header", () => {
  test.each(["ab", "x", "abc", "", "a/b", "user@h:1", "[::1]:80", "gateway.example:5001"])("Host %p: /healthz → 200", async (host) => {
    const r = await get(g.port, "/healthz", host);
    expect(r.status).toBe(200);
    expect(r.headers["x-request-id"]).toBeTruthy();
  });

  test("Host: x does not swallow a path segment: /zz/v1/chat/completions → 404 in the chat shape", async () => {
    const r = parseRaw(await (async () => {
      const c = await openRaw(g.port);
      c.write(chatRequest("/zz/v1/chat/completions", "x", "hi"));
      return c.closed;
    })());
    expect(r.status).toBe(404);
    expect(JSON.parse(r.body).error.code).toBe("not_found");
  });

  test("Host: x on a real route reads the body and answers (on the simulator)", async () => {
    const r = await rawRequest(g.port, chatRequest("/v1/chat/completions", "x", "hello from a short host", KEY));
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).object).toBe("chat.completion");
  });

  test("the query string survives the re-addressing", async () => {
    const r = await get(g.port, `/admin/settings?ignored=1`, "ab");
    expect(r.status).toBe(401);
    const ok = await rawRequest(g.port, `GET /admin/queue/status?x=/y HTTP/1.1\r\nHost: ab\r\nAuthorization: Bearer ${TEST_ADMIN_KEY}\r\nConnection: close\r\n\r\n`);
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).max_inflight_per_account).toBe(1);
  });

  test("the access log of a re-addressed request has the client address", async () => {
    await get(g.port, "/v1/models?probe=client-ip", "ab");
    const line = g.logs.find((l) => l.includes('"msg":"request"') && l.includes("probe=client-ip"));
    expect(line).toBeDefined();
    expect(JSON.parse(line!).client_ip).toBe("127.0.0.1");
  });
});

async function queueStatus(): Promise<{ waiting: number; in_use: number }> {
  const r = await fetch(`${g.url}/admin/queue/status`, { headers: { Authorization: `Bearer ${TEST_ADMIN_KEY}` } });
  return r.json();
}

async function until(cond: () => Promise<boolean>): Promise<void> {
  while (!(await cond())) await Bun.sleep(20);
}

describe("a re-addressed request still aborts when its client leaves", () => {
  test("a queued request with Host: x leaves the queue when its socket closes (D8.5)", async () => {
    // The only slot is taken straight from the pool, so nothing but the waiter's own signal can end its wait.
    const lease = await g.gw.ctx.pool.acquire();
    try {
      const waiter = await openRaw(g.port);
      waiter.write(chatRequest("/v1/chat/completions", "x", "queued behind the held slot", KEY));
      await until(async () => (await queueStatus()).waiting === 1);
      waiter.destroy();
      // Only request.signal's abort takes a waiter out of the queue before its 60 s wait ends.
      await until(async () => (await queueStatus()).waiting === 0);
      expect(waiter.received()).toBe("");
    } finally {
      lease.release();
    }
    expect((await queueStatus()).in_use).toBe(0);
  }, 15_000);
});
