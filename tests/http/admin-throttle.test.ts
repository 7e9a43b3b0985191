// Issue 15 item 5 / D5.9: every admin credential check shares the login throttle per client address, so
// `Authorization: Bearer <guess>` on any admin route locks after 10 failures like /admin/login does.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { request as httpRequest } from "node:http";
import { startLiveGateway, TEST_ADMIN_KEY, type LiveGateway } from "../helpers/gateway";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** One request from a chosen loopback source address (127.0.0.x all reach the server on 127.0.0.1). */
function call(g: LiveGateway, method: string, path: string, opts: { bearer?: string; from?: string; body?: unknown } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: g.port,
        method,
        path,
        localAddress: opts.from ?? "127.0.0.1",
        agent: false,
        headers: {
          ...(opts.bearer ? { Authorization: `Bearer ${opts.bearer}` } : {}),
          ...(payload ? { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(payload)) } : {}),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parseBody(text) }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** JSON answers parsed; /metrics' text exposition kept as text. */
function parseBody(text: string): any {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const guess = (i: number) => `guess-${i}-not-the-key`;

let g: LiveGateway;
beforeEach(async () => {
  g = await startLiveGateway({ env: { SVC_CORE_BASE_URL: "http://127.0.0.1:9" } });
});
afterEach(() => g.stop());

describe("admin credential throttle on every admin route", () => {
  test("10 wrong bearer keys → 401s, then 429 {detail} with Retry-After and X-Request-Id", async () => {
    for (let i = 0; i < 10; i++) {
      const r = await call(g, "GET", "/admin/settings", { bearer: guess(i) });
      expect(r.status).toBe(401);
    }
    const r = await call(g, "GET", "/admin/settings", { bearer: guess(99) });
    expect(r.status).toBe(429);
    expect(Object.keys(r.body)).toEqual(["detail"]);
    expect(r.body.detail).toContain("try again later");
    const wait = Number(r.headers["retry-after"]);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(600);
    expect(r.headers["x-request-id"]).toBeTruthy();
    // The guess itself is never written anywhere.
    expect(g.logs.join("\n")).not.toContain("not-the-key");
    expect(g.logs.filter((l) => l.includes("admin credential throttle engaged")).length).toBe(1);
  });

  test("guesses on different admin routes (known, unknown, verify) all count", async () => {
    const routes: [string, string][] = [
      ["GET", "/admin/queue/status"],
      ["GET", "/admin/no-such-route"],
      ["GET", "/admin/verify"],
      ["POST", "/admin/accounts"],
      ["GET", "/admin/config"],
    ];
    for (let i = 0; i < 10; i++) {
      const [m, p] = routes[i % routes.length]!;
      expect((await call(g, m, p, { bearer: guess(i), body: m === "POST" ? {} : undefined })).status).toBe(401);
    }
    expect((await call(g, "GET", "/admin/no-such-route", { bearer: guess(10) })).status).toBe(429);
    expect((await call(g, "GET", "/admin/verify", { bearer: guess(11) })).status).toBe(429);
  });

  test("/admin/login failures and bearer failures share one window", async () => {
    for (let i = 0; i < 5; i++) expect((await call(g, "POST", "/admin/login", { body: { admin_key: guess(i) } })).status).toBe(401);
    for (let i = 5; i < 10; i++) expect((await call(g, "GET", "/admin/settings", { bearer: guess(i) })).status).toBe(401);
    expect((await call(g, "POST", "/admin/login", { body: { admin_key: TEST_ADMIN_KEY } })).status).toBe(429);
  });

  test("the right key works at once and resets the count; it is not compared while locked", async () => {
    for (let i = 0; i < 9; i++) await call(g, "GET", "/admin/settings", { bearer: guess(i) });
    expect((await call(g, "GET", "/admin/settings", { bearer: TEST_ADMIN_KEY })).status).toBe(200);
    // Reset: nine more guesses are still answered 401.
    for (let i = 0; i < 9; i++) expect((await call(g, "GET", "/admin/settings", { bearer: guess(i) })).status).toBe(401);
    expect((await call(g, "GET", "/admin/settings", { bearer: guess(9) })).status).toBe(401);
    // Locked now: a guess and the key get the same answer, so the lock really stops guessing.
    expect((await call(g, "GET", "/admin/settings", { bearer: guess(10) })).status).toBe(429);
    expect((await call(g, "GET", "/admin/settings", { bearer: TEST_ADMIN_KEY })).status).toBe(429);
  });

  test("a console's valid JWT keeps working while its address is locked", async () => {
    const login = await call(g, "POST", "/admin/login", { body: { admin_key: TEST_ADMIN_KEY } });
    expect(login.status).toBe(200);
    const jwt = login.body.token as string;
    for (let i = 0; i < 11; i++) await call(g, "GET", "/admin/settings", { bearer: guess(i) });
    expect((await call(g, "GET", "/admin/settings", { bearer: guess(11) })).status).toBe(429);
    expect((await call(g, "GET", "/admin/settings", { bearer: jwt })).status).toBe(200);
    expect((await call(g, "GET", "/admin/verify", { bearer: jwt })).status).toBe(200);
  });

  test("an expired JWT (a stale console tab) and a missing credential are not guesses", async () => {
    const login = await call(g, "POST", "/admin/login", { body: { admin_key: TEST_ADMIN_KEY, expire_hours: 1 } });
    const jwt = login.body.token as string;
    const realNow = g.gw.ctx.now;
    g.gw.ctx.now = () => realNow() + 2 * 3600 * 1000;
    for (let i = 0; i < 15; i++) {
      expect((await call(g, "GET", "/admin/queue/status", { bearer: jwt })).status).toBe(401);
      expect((await call(g, "GET", "/admin/queue/status")).status).toBe(401);
    }
    g.gw.ctx.now = realNow;
    expect((await call(g, "GET", "/admin/settings", { bearer: TEST_ADMIN_KEY })).status).toBe(200);
  });

  test("the lock is per client address", async () => {
    for (let i = 0; i < 10; i++) await call(g, "GET", "/admin/settings", { bearer: guess(i), from: "127.0.0.2" });
    expect((await call(g, "GET", "/admin/settings", { bearer: guess(10), from: "127.0.0.2" })).status).toBe(429);
    expect((await call(g, "GET", "/admin/settings", { bearer: guess(10), from: "127.0.0.3" })).status).toBe(401);
    expect((await call(g, "GET", "/admin/settings", { bearer: TEST_ADMIN_KEY, from: "127.0.0.1" })).status).toBe(200);
  });

  test("the /metrics scrape token is not compared while the address is locked (issue 30 item 4)", async () => {
    const token = "scrape-token-for-lock";
    expect((await call(g, "PUT", "/admin/settings", { bearer: TEST_ADMIN_KEY, body: { metrics: { token } } })).status).toBe(200);
    expect((await call(g, "GET", "/metrics", { bearer: token })).status).toBe(200);
    // Wrong scrape tokens are guesses like wrong admin keys.
    for (let i = 0; i < 10; i++) expect((await call(g, "GET", "/metrics", { bearer: guess(i) })).status).toBe(401);
    const wrong = await call(g, "GET", "/metrics", { bearer: guess(10) });
    const right = await call(g, "GET", "/metrics", { bearer: token });
    // Locked: the right token and a wrong one get the same answer.
    expect(wrong.status).toBe(429);
    expect(right.status).toBe(429);
    expect(Number(right.headers["retry-after"])).toBeGreaterThan(0);
    expect(Object.keys(right.body)).toEqual(Object.keys(wrong.body));
    // Another address is not locked, and the right token there resets nothing here.
    expect((await call(g, "GET", "/metrics", { bearer: token, from: "127.0.0.4" })).status).toBe(200);
    expect((await call(g, "GET", "/metrics", { bearer: token })).status).toBe(429);
  });
});
