// Per-account outbound proxies (core-upstream §2, D11.7) against real local proxy servers: tinyproxy (HTTP) and
// microsocks (SOCKS5, with and without credentials), started by the test on free loopback ports.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CoreClient } from "../../src/core/client";
import { CoreError } from "../../src/core/errors";
import { PowPool } from "../../src/core/pow/pool";
import { effectiveUpstream } from "../../src/config/effective";
import type { ProxySpec } from "../../src/core/proxy-spec";
import { startCoreSimulator, type CoreSimulator } from "../../src/sim/index";
import { freePort } from "../helpers/binary";
import { scratchDir } from "../helpers/scratch";
import { requireTool } from "../helpers/require-tool";

const have = (bin: string) => Bun.which(bin) !== null;
const missing = ["tinyproxy", "microsocks"].filter((b) => !have(b));
const HAVE_PROXIES = requireTool(import.meta.path, "tinyproxy and microsocks", missing.length === 0, `${missing.join(", ")} not installed (apt-get install -y tinyproxy microsocks, or .ci/install-proxies.sh)`);

let sim: CoreSimulator;
let client: CoreClient;
/** The same calls with `upstream.call_client: "socket"`: the socket client speaks to the proxies itself. */
let socketClient: CoreClient;
const procs: ReturnType<typeof Bun.spawn>[] = [];
const ports: Record<string, number> = {};

async function waitPort(port: number) {
  for (let i = 0; i < 100; i++) {
    try {
      const s = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } });
      s.end();
      return;
    } catch {
      await Bun.sleep(30);
    }
  }
  throw new Error(`nothing listens on ${port}`);
}

beforeAll(async () => {
  sim = await startCoreSimulator({ difficulty: 1, accounts: [{ email: "p@sim.test", password: "pw" }] });
  client = new CoreClient(effectiveUpstream({}, {}), sim.url, new PowPool(1));
  socketClient = new CoreClient(effectiveUpstream({ upstream: { call_client: "socket" } }, {}), sim.url, new PowPool(1));
  if (missing.length) return;
  ports.http = await freePort();
  const dir = scratchDir("svc-proxy-");
  writeFileSync(join(dir, "tp.conf"), `Port ${ports.http}\nListen 127.0.0.1\nTimeout 30\nAllow 127.0.0.1\nMaxClients 20\n`);
  procs.push(Bun.spawn(["tinyproxy", "-d", "-c", join(dir, "tp.conf")], { stdout: "ignore", stderr: "ignore" }));
  ports.httpAuth = await freePort();
  writeFileSync(join(dir, "tpa.conf"), `Port ${ports.httpAuth}\nListen 127.0.0.1\nTimeout 30\nAllow 127.0.0.1\nMaxClients 20\nBasicAuth proxyuser proxypass\n`);
  procs.push(Bun.spawn(["tinyproxy", "-d", "-c", join(dir, "tpa.conf")], { stdout: "ignore", stderr: "ignore" }));
  ports.socks = await freePort();
  procs.push(Bun.spawn(["microsocks", "-i", "127.0.0.1", "-p", String(ports.socks)], { stdout: "ignore", stderr: "ignore" }));
  ports.socksAuth = await freePort();
  procs.push(Bun.spawn(["microsocks", "-i", "127.0.0.1", "-p", String(ports.socksAuth), "-u", "proxyuser", "-P", "proxypass"], { stdout: "ignore", stderr: "ignore" }));
  for (const p of Object.values(ports)) await waitPort(p);
});

afterAll(async () => {
  for (const p of procs) p.kill();
  await sim.stop();
});

const cases: [string, () => ProxySpec][] = [
  ["an HTTP proxy (tinyproxy)", () => ({ type: "http", host: "127.0.0.1", port: ports.http! })],
  ["a SOCKS5 proxy (microsocks)", () => ({ type: "socks5", host: "127.0.0.1", port: ports.socks! })],
  ["a SOCKS5 proxy resolving names itself (socks5h)", () => ({ type: "socks5h", host: "127.0.0.1", port: ports.socks! })],
  ["an HTTP proxy with credentials (tinyproxy BasicAuth)", () => ({ type: "http", host: "127.0.0.1", port: ports.httpAuth!, username: "proxyuser", password: "proxypass" })],
  ["a SOCKS5 proxy with credentials", () => ({ type: "socks5", host: "127.0.0.1", port: ports.socksAuth!, username: "proxyuser", password: "proxypass" })],
];

describe.skipIf(!HAVE_PROXIES)("core calls through real proxies", () => {
  test.each(cases)("login, session and a streamed completion through %s", async (_n, spec) => {
    const proxy = spec();
    const token = await client.login({ email: "p@sim.test", password: "pw" }, { proxy });
    expect(token).toStartWith("sim-");
    const session = await client.createSession(token, { proxy });
    expect(session.length).toBeGreaterThan(10);
    const { startCompletion } = await import("../../src/core/attempt");
    const c = await startCompletion(client, token, { modelType: "default", prompt: "<｜User｜>through the proxy<｜Assistant｜>", refFileIds: [], thinking: false, search: false, passThrough: {} }, { signal: new AbortController().signal, proxy });
    const text = (await Array.fromAsync(c.frames as unknown as AsyncIterable<{ data: string }[]>)).flat().map((f) => f.data).join("\n");
    expect(text).toContain('"v":"proxy');
    expect(text).toContain('status","o":"SET","v":"FINISHED"');
  });

  test.each(cases)("login, session and a PoW challenge over the socket client through %s", async (_n, spec) => {
    const proxy = spec();
    const before = sim.requests().length;
    const token = await socketClient.login({ email: "p@sim.test", password: "pw" }, { proxy });
    expect(token).toStartWith("sim-");
    expect((await socketClient.createSession(token, { proxy })).length).toBeGreaterThan(10);
    expect((await socketClient.getPowChallenge(token, "/api/v0/chat/completion", { proxy })).difficulty).toBeGreaterThan(0);
    expect(sim.requests().length).toBe(before + 3);
  });

  test("wrong proxy credentials over the socket client: a proxy failure, no secret in it", async () => {
    const http = await socketClient.createSession("sim-whatever", { proxy: { type: "http", host: "127.0.0.1", port: ports.httpAuth!, username: "proxyuser", password: "wrong-secret" } }).catch((x) => x);
    expect(http).toBeInstanceOf(CoreError);
    expect(http.message).not.toContain("wrong-secret");
    const socks = await socketClient.login({ email: "p@sim.test", password: "pw" }, { proxy: { type: "socks5", host: "127.0.0.1", port: ports.socksAuth!, username: "proxyuser", password: "wrong-secret" } }).catch((x) => x);
    expect(socks).toBeInstanceOf(CoreError);
    expect(socks.origin).toBe("proxy");
    expect(socks.message).toContain(`socks5 proxy 127.0.0.1:${ports.socksAuth}`);
    expect(socks.message).not.toContain("wrong-secret");
  });

  test("wrong HTTP proxy credentials fail the call without leaking the password", async () => {
    const proxy: ProxySpec = { type: "http", host: "127.0.0.1", port: ports.httpAuth!, username: "proxyuser", password: "wrong-secret" };
    const e = await client.createSession("sim-whatever", { proxy }).catch((x) => x);
    expect(e).toBeInstanceOf(Error);
    expect(String(e.message)).not.toContain("wrong-secret");
  });

  test("wrong SOCKS5 credentials fail the call", async () => {
    const proxy: ProxySpec = { type: "socks5", host: "127.0.0.1", port: ports.socksAuth!, username: "proxyuser", password: "wrong" };
    await expect(client.login({ email: "p@sim.test", password: "pw" }, { proxy })).rejects.toThrow();
  });
});
