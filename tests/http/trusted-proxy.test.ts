// Issue 33 items 1 and 2 on the real gateway socket: the lock-out an internet client could turn against the admin
// through a reverse proxy, the spoofed X-Forwarded-For that must change nothing without a trusted proxy, the
// address the access log writes, and the global failure budget that slows but never refuses the right key.
import { afterEach, describe, expect, test } from "bun:test";
import { request as httpRequest } from "node:http";
import { startLiveGateway, TEST_ADMIN_KEY, type LiveGateway } from "../helpers/gateway";
import { GLOBAL_BUDGET, LoginThrottle } from "../../src/http/login-throttle";
import { startGateway } from "../../src/server";
import { createLogger } from "../../src/util/log";
import type { Config } from "../../src/config/schema";
import { scratchDir } from "../helpers/scratch";
import { join } from "node:path";

interface Answer {
  status: number;
  body: any;
}

/** One request from a chosen loopback source address, with the forwarding headers a proxy (or a liar) sends. */
function call(g: LiveGateway, path: string, opts: { bearer?: string; from: string; headers?: Record<string, string>; body?: unknown }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: g.port,
        method: payload ? "POST" : "GET",
        path,
        localAddress: opts.from,
        agent: false,
        headers: {
          ...(opts.bearer ? { Authorization: `Bearer ${opts.bearer}` } : {}),
          ...(payload ? { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(payload)) } : {}),
          ...(opts.headers ?? {}),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

const guess = (i: number) => `guess-${i}-not-the-key`;
const PROXY = "127.0.0.2";

/** The access log's client_ip of every request line for `path`, in order. */
function loggedAddresses(g: LiveGateway, path: string): string[] {
  return g.logs
    .map((l) => JSON.parse(l))
    .filter((l) => l.msg === "request" && l.path === path)
    .map((l) => l.client_ip);
}

let g: LiveGateway | undefined;
afterEach(async () => {
  await g?.stop();
  g = undefined;
});

describe("behind a trusted proxy", () => {
  test("10 wrong keys from one forwarded address lock that address only; another's right key works", async () => {
    g = await startLiveGateway({ config: { server: { trusted_proxies: [`${PROXY}/32`] } }, env: { SVC_CORE_BASE_URL: "http://127.0.0.1:9" } });
    const attacker = { "X-Forwarded-For": "203.0.113.66" };
    for (let i = 0; i < 10; i++) expect((await call(g, "/admin/settings", { bearer: guess(i), from: PROXY, headers: attacker })).status).toBe(401);
    expect((await call(g, "/admin/settings", { bearer: guess(10), from: PROXY, headers: attacker })).status).toBe(429);
    // The admin, through the same proxy from another address: not locked, neither a guess nor the key.
    const admin = { "X-Forwarded-For": "198.51.100.20" };
    expect((await call(g, "/admin/settings", { bearer: guess(11), from: PROXY, headers: admin })).status).toBe(401);
    expect((await call(g, "/admin/settings", { bearer: TEST_ADMIN_KEY, from: PROXY, headers: admin })).status).toBe(200);
    expect((await call(g, "/admin/login", { from: PROXY, headers: admin, body: { admin_key: TEST_ADMIN_KEY } })).status).toBe(200);
    // The log names the forwarded clients, not the proxy.
    const logged = loggedAddresses(g, "/admin/settings");
    expect(logged.slice(0, 11)).toEqual(Array(11).fill("203.0.113.66"));
    expect(logged.slice(11)).toEqual(["198.51.100.20", "198.51.100.20"]);
    expect(g.logs.some((l) => l.includes("admin credential throttle engaged") && l.includes("203.0.113.66"))).toBe(true);
  });

  test("IPv6 clients and a multi-hop chain: the right-most untrusted hop is the client", async () => {
    g = await startLiveGateway({ config: { server: { trusted_proxies: [PROXY, "10.0.0.0/8"] } }, env: { SVC_CORE_BASE_URL: "http://127.0.0.1:9" } });
    // The client prepends a lie; the edge proxy (10.1.1.1) appended the real IPv6 client; our proxy appended the edge.
    const chain = (client: string) => ({ "X-Forwarded-For": `192.0.2.1, ${client}, 10.1.1.1` });
    for (let i = 0; i < 10; i++) await call(g, "/admin/settings", { bearer: guess(i), from: PROXY, headers: chain("2001:db8::bad") });
    expect((await call(g, "/admin/settings", { bearer: guess(10), from: PROXY, headers: chain("2001:DB8:0::BAD") })).status).toBe(429);
    expect((await call(g, "/admin/settings", { bearer: TEST_ADMIN_KEY, from: PROXY, headers: chain("2001:db8::900d") })).status).toBe(200);
    // Forwarded (RFC 7239) with a quoted, bracketed IPv6 address and port.
    expect((await call(g, "/admin/settings", { bearer: TEST_ADMIN_KEY, from: PROXY, headers: { Forwarded: 'for="[2001:db8::7]:4711"' } })).status).toBe(200);
    const logged = loggedAddresses(g, "/admin/settings");
    expect(logged[0]).toBe("2001:db8::bad");
    expect(logged.at(-2)).toBe("2001:db8::900d");
    expect(logged.at(-1)).toBe("2001:db8::7");
  });

  test("SVC_TRUSTED_PROXIES alone enables it", async () => {
    g = await startLiveGateway({ env: { SVC_CORE_BASE_URL: "http://127.0.0.1:9", SVC_TRUSTED_PROXIES: `10.0.0.0/8,${PROXY}` } });
    await call(g, "/healthz", { from: PROXY, headers: { "X-Real-IP": "198.51.100.77" } });
    expect(loggedAddresses(g, "/healthz")).toEqual(["198.51.100.77"]);
  });
});

describe("an IPv6 socket", () => {
  /** The gateway on [::1], as startLiveGateway starts it on 127.0.0.1. */
  async function onIpv6(config: Config): Promise<{ url: string; stop: () => Promise<void>; logs: string[] }> {
    const dataDir = scratchDir("svc-gw-v6-");
    const logs: string[] = [];
    const gw = await startGateway({
      loaded: { config, source: "test", path: join(dataDir, "config.json"), data_dir: dataDir, env_backed: false, env_source_present: false, env_writeback_enabled: false, warnings: [] },
      log: createLogger("debug", (l) => logs.push(l)),
      port: 0,
      host: "::1",
      env: { SVC_ADMIN_KEY: TEST_ADMIN_KEY, SVC_CORE_BASE_URL: "http://127.0.0.1:9" },
      quiet: true,
    });
    return { url: `http://[::1]:${gw.port}`, stop: () => gw.drain(), logs };
  }
  const clientIps = (logs: string[]) => logs.map((l) => JSON.parse(l)).filter((l) => l.msg === "request" && l.path === "/admin/settings").map((l) => l.client_ip);

  test("a trusted IPv6 proxy (::1/128) names the client; an untrusted one is the client itself", async () => {
    const headers = { Authorization: `Bearer ${TEST_ADMIN_KEY}`, "X-Forwarded-For": "2001:db8::1234, 198.51.100.3" };
    const trusted = await onIpv6({ server: { trusted_proxies: ["::1/128"] } });
    try {
      expect((await fetch(`${trusted.url}/admin/settings`, { headers })).status).toBe(200);
      expect(clientIps(trusted.logs)).toEqual(["198.51.100.3"]);
    } finally {
      await trusted.stop();
    }
    const untrusted = await onIpv6({ server: { trusted_proxies: ["127.0.0.1"] } });
    try {
      expect((await fetch(`${untrusted.url}/admin/settings`, { headers })).status).toBe(200);
      expect(clientIps(untrusted.logs)).toEqual(["::1"]);
    } finally {
      await untrusted.stop();
    }
  });
});

describe("without a trusted proxy", () => {
  test("a spoofed X-Forwarded-For neither escapes the throttle nor changes the logged address", async () => {
    g = await startLiveGateway({ env: { SVC_CORE_BASE_URL: "http://127.0.0.1:9" } });
    const from = "127.0.0.3";
    for (let i = 0; i < 10; i++) {
      const spoof = { "X-Forwarded-For": `203.0.113.${i}`, Forwarded: `for=198.51.100.${i}`, "X-Real-IP": `192.0.2.${i}` };
      expect((await call(g, "/admin/settings", { bearer: guess(i), from, headers: spoof })).status).toBe(401);
    }
    expect((await call(g, "/admin/settings", { bearer: guess(10), from, headers: { "X-Forwarded-For": "203.0.113.200" } })).status).toBe(429);
    expect(new Set(loggedAddresses(g, "/admin/settings"))).toEqual(new Set([from]));
  });

  test("a proxy that is not in the list is one client: its forwarded addresses are ignored", async () => {
    g = await startLiveGateway({ config: { server: { trusted_proxies: ["10.0.0.0/8"] } }, env: { SVC_CORE_BASE_URL: "http://127.0.0.1:9" } });
    for (let i = 0; i < 10; i++) await call(g, "/admin/settings", { bearer: guess(i), from: PROXY, headers: { "X-Forwarded-For": `203.0.113.${i}` } });
    expect((await call(g, "/admin/settings", { bearer: TEST_ADMIN_KEY, from: PROXY, headers: { "X-Forwarded-For": "198.51.100.1" } })).status).toBe(429);
  });
});

describe("global failure budget", () => {
  test("past the budget every key check is slowed, the right key from an unlocked address still gets in", async () => {
    g = await startLiveGateway({ config: { server: { trusted_proxies: [PROXY] } }, env: { SVC_CORE_BASE_URL: "http://127.0.0.1:9" } });
    const waits: number[] = [];
    g.gw.ctx.loginThrottle = new LoginThrottle(Date.now, async (ms) => void waits.push(ms));
    // Guesses spread over many addresses, each below its own lock.
    let n = 0;
    for (let a = 0; n <= GLOBAL_BUDGET + 5; a++)
      for (let i = 0; i < 5; i++, n++) await call(g, "/admin/settings", { bearer: guess(n), from: PROXY, headers: { "X-Forwarded-For": `203.0.113.${a}` } });
    expect(g.gw.ctx.loginThrottle.globalFailures()).toBeGreaterThan(GLOBAL_BUDGET);
    expect(waits.length).toBeGreaterThan(0);
    waits.length = 0;
    const admin = { "X-Forwarded-For": "198.51.100.20" };
    expect((await call(g, "/admin/settings", { bearer: TEST_ADMIN_KEY, from: PROXY, headers: admin })).status).toBe(200);
    expect((await call(g, "/admin/login", { from: PROXY, headers: admin, body: { admin_key: TEST_ADMIN_KEY } })).status).toBe(200);
    expect(waits).toHaveLength(2);
    expect(waits.every((ms) => ms > 0)).toBe(true);
  });

  test("the delay grows with the failures over the budget, is capped, and leaves with the window", () => {
    let now = 1_000_000_000;
    const t = new LoginThrottle(() => now);
    for (let i = 0; i < GLOBAL_BUDGET; i++) t.fail(`203.0.113.${i % 200}`);
    expect(t.globalDelayMs()).toBe(0);
    t.fail("192.0.2.1");
    const first = t.globalDelayMs();
    expect(first).toBeGreaterThan(0);
    for (let i = 0; i < 10_000; i++) t.fail(`2001:db8::${i.toString(16)}`);
    expect(t.globalDelayMs()).toBeGreaterThan(first);
    expect(t.globalDelayMs()).toBeLessThanOrEqual(2_000);
    now += 12 * 60 * 1000;
    expect(t.globalDelayMs()).toBe(0);
  });
});
