// Issue 32: a SOCKS5 proxy (microsocks) killed mid-traffic takes only its accounts out — requests keep being
// served by the direct account, nothing of the proxied account reaches core directly — and its account comes
// back by itself (the probe) once the proxy is up again on the same port.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startCoreSimulator, type CoreSimulator } from "../../src/sim/index";
import { eventually, startLiveGateway, type LiveGateway } from "../helpers/live-gateway";
import { freePort } from "../helpers/binary";

const HAVE = Bun.which("microsocks") !== null;
if (!HAVE) console.warn("proxy-down tests skipped: microsocks not installed (.ci/install-proxies.sh installs it)");

const P = "p@proxy-down.test";
const D = "d@proxy-down.test";
const accounts = [
  { email: P, password: "pw-p", proxy_id: "px" },
  { email: D, password: "pw-d" },
];
const KEY = "sk-proxy-down";

let sim: CoreSimulator;
let gw: LiveGateway;
let port: number;
let proxy: ReturnType<typeof Bun.spawn> | null = null;

async function startProxy(): Promise<void> {
  proxy = Bun.spawn(["microsocks", "-i", "127.0.0.1", "-p", String(port)], { stdout: "ignore", stderr: "ignore" });
  for (let i = 0; i < 100; i++) {
    try {
      const s = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } });
      s.end();
      return;
    } catch {
      await Bun.sleep(30);
    }
  }
  throw new Error("microsocks did not start");
}

const chat = (content: string) =>
  fetch(`${gw.url}/v1/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({ model: "core-v4-flash-nothinking", messages: [{ role: "user", content }] }),
  });

describe.skipIf(!HAVE)("a proxy that goes down", () => {
  beforeAll(async () => {
    sim = await startCoreSimulator({ difficulty: 1, accounts });
    port = await freePort();
    await startProxy();
    gw = await startLiveGateway({ config: { keys: [KEY], accounts, proxies: [{ id: "px", type: "socks5", host: "127.0.0.1", port }] }, coreUrl: sim.url });
    gw.gw.ctx.health.setPolicy({ proxy_unreachable: { baseMs: 300, capMs: 600 } });
  });
  afterAll(async () => {
    proxy?.kill("SIGKILL");
    await gw?.stop();
    await sim?.stop();
  });

  test("takes only its account out, never goes direct, and the account returns when the proxy does", async () => {
    // Both accounts serve while the proxy is up.
    for (let i = 0; i < 4; i++) expect((await chat(`up ${i}`)).status).toBe(200);
    expect(sim.requests({ path: "/api/v0/chat/completion", account: P }).length).toBeGreaterThan(0);

    proxy!.kill("SIGKILL");
    await proxy!.exited;
    const before = sim.requests({ account: P }).length;
    // Every request is still answered: the direct account takes them.
    for (let i = 0; i < 4; i++) expect((await chat(`down ${i}`)).status).toBe(200);
    expect(gw.gw.ctx.health.get(P).class).toBe("proxy_unreachable");
    expect(gw.gw.ctx.health.get(D).state).toBe("healthy");
    // Fail closed: nothing of the proxied account reached core while its proxy was down.
    expect(sim.requests({ account: P }).length).toBe(before);
    const failure = gw.gw.ctx.health.get(P).events.find((e) => e.kind === "failure")!;
    expect(failure.detail).toContain(`socks5 proxy 127.0.0.1:${port} unreachable (ECONNREFUSED)`);

    await startProxy();
    expect(await eventually(() => gw.gw.ctx.health.get(P).state === "healthy", 5000)).toBe(true);
    const served = sim.requests({ path: "/api/v0/chat/completion", account: P }).length;
    for (let i = 0; i < 4; i++) expect((await chat(`back ${i}`)).status).toBe(200);
    expect(sim.requests({ path: "/api/v0/chat/completion", account: P }).length).toBeGreaterThan(served);
  }, 30_000);
});
