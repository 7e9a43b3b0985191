// Issue 32: errors that name the real cause. A wrong base URL, a closed port, a TLS error and a SOCKS proxy that
// is down or refuses each say so — in the account test, in the account's health and in the log — and the 503 a
// client gets counts the classes that made each candidate unavailable. Real sockets throughout.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import net from "node:net";
import { startCoreSimulator, type CoreSimulator } from "../../src/sim/index";
import { LIVE_ADMIN_KEY, startLiveGateway, type LiveGateway } from "../helpers/live-gateway";

const A = "a@cause.test";
const accounts = [{ email: A, password: "pw-a" }];
const KEY = "sk-cause";

let sim: CoreSimulator;
beforeAll(async () => {
  sim = await startCoreSimulator({ difficulty: 1, accounts });
});
afterAll(() => sim.stop());

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function withGateway(coreUrl: string, extra: Record<string, unknown>, fn: (g: LiveGateway) => Promise<void>): Promise<void> {
  const g = await startLiveGateway({ config: { keys: [KEY], accounts, ...extra }, coreUrl });
  try {
    await fn(g);
  } finally {
    await g.stop();
  }
}

const admin = { Authorization: `Bearer ${LIVE_ADMIN_KEY}`, "Content-Type": "application/json" };

async function accountTest(g: LiveGateway): Promise<string> {
  const r = await fetch(`${g.url}/admin/accounts/test`, { method: "POST", headers: admin, body: JSON.stringify({ identifier: A }) });
  const body = await r.json();
  expect(body.success).toBe(false);
  return body.message;
}

async function chat503(g: LiveGateway): Promise<{ code: string; message: string }> {
  const r = await fetch(`${g.url}/v1/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({ model: "core-v4-flash-nothinking", messages: [{ role: "user", content: "hi" }] }),
  });
  expect(r.status).toBe(503);
  return (await r.json()).error;
}

const lastFailure = (g: LiveGateway) => g.gw.ctx.health.get(A).events.filter((e) => e.kind === "failure").at(-1)!;

describe("errors that name the cause", () => {
  test("a base URL whose login path answers 404 with a web page says the base URL looks wrong", async () => {
    const web = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("<html>Not Found</html>", { status: 404, headers: { "Content-Type": "text/html" } }) });
    try {
      await withGateway(`http://127.0.0.1:${web.port}`, {}, async (g) => {
        const e = await chat503(g);
        expect(e.code).toBe("upstream_unavailable");
        expect(e.message).toContain("tried 1 (base_url_wrong 1)");
        expect(lastFailure(g).class).toBe("base_url_wrong");
        expect(lastFailure(g).detail).toContain(`http://127.0.0.1:${web.port}/api/v0/users/login answered HTTP 404 with a web page; the base URL looks wrong`);
        // Not the account's fault: it stays in rotation.
        expect(g.gw.ctx.health.get(A).state).toBe("healthy");
        expect(g.queue().cooldown_accounts).toEqual([]);
        expect(await accountTest(g)).toContain("the base URL looks wrong");
        const line = g.lines("account failure").find((l) => l.class === "base_url_wrong")!;
        expect(line.account).toBe("a***@cause.test");
      });
    } finally {
      web.stop(true);
    }
  });

  test("a closed port says core is unreachable at that address, with the errno", async () => {
    const port = await closedPort();
    await withGateway(`http://127.0.0.1:${port}`, {}, async (g) => {
      const e = await chat503(g);
      expect(e.message).toContain("tried 1 (network 1)");
      const msg = await accountTest(g);
      expect(msg).toContain(`core unreachable at http://127.0.0.1:${port}`);
      expect(msg).toMatch(/ECONNREFUSED|ConnectionRefused/);
      expect(g.gw.ctx.health.get(A).state).toBe("healthy");
    });
  });

  test("a TLS error (https to a plain HTTP port) says core is unreachable over https", async () => {
    await withGateway(sim.url.replace("http:", "https:"), {}, async (g) => {
      const msg = await accountTest(g);
      expect(msg).toContain(`core unreachable at ${sim.url.replace("http:", "https:")}`);
    });
  });

  test("a SOCKS5 proxy that is down names the proxy and the errno, and its account is kept out (fail closed)", async () => {
    const port = await closedPort();
    const proxies = [{ id: "p1", type: "socks5", host: "127.0.0.1", port, username: "proxy-user", password: "proxy-secret" }];
    await withGateway(sim.url, { proxies, accounts: [{ ...accounts[0], proxy_id: "p1" }] }, async (g) => {
      const before = sim.requests().length;
      const e = await chat503(g);
      expect(e.message).toContain("proxy_unreachable 1");
      expect(e.message).not.toContain("proxy-secret");
      expect(lastFailure(g).class).toBe("proxy_unreachable");
      expect(lastFailure(g).detail).toContain(`socks5 proxy 127.0.0.1:${port} unreachable (ECONNREFUSED)`);
      expect(g.gw.ctx.health.get(A).state).toBe("cooling_down");
      expect(g.queue().cooldown_accounts).toEqual([A]);
      // Nothing reached core directly.
      expect(sim.requests().length).toBe(before);
      expect(g.logs.join("\n")).not.toContain("proxy-secret");
      expect(await accountTest(g)).toContain(`socks5 proxy 127.0.0.1:${port} unreachable (ECONNREFUSED)`);
    });
  });

  test("a SOCKS5 proxy that refuses the connection says what it replied", async () => {
    // A SOCKS5 server that accepts no-auth and answers every CONNECT with reply 5 (connection refused).
    const refusing = net.createServer((sock) => {
      let stage = 0;
      sock.on("data", () => {
        sock.write(stage++ === 0 ? Buffer.from([5, 0]) : Buffer.from([5, 5, 0, 1, 0, 0, 0, 0, 0, 0]));
      });
      sock.on("error", () => {});
    });
    await new Promise<void>((r) => refusing.listen(0, "127.0.0.1", () => r()));
    const port = (refusing.address() as net.AddressInfo).port;
    try {
      const proxies = [{ id: "p1", type: "socks5", host: "127.0.0.1", port }];
      await withGateway(sim.url, { proxies, accounts: [{ ...accounts[0], proxy_id: "p1" }] }, async (g) => {
        const msg = await accountTest(g);
        expect(msg).toContain(`socks5 proxy 127.0.0.1:${port}`);
        expect(msg).toContain("reply 5: connection refused by the destination");
      });
    } finally {
      refusing.close();
    }
  });
});
