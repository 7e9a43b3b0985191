// Issue 32: `svc-gateway doctor` as a process (bun src/main.ts), against the simulator over real sockets: exit 0
// and every row ok on a healthy set-up; exit 1 with rows that name the cause and what to do on broken ones;
// --json for scripts; never a completion. GET /admin/doctor answers the same checks for the running config.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import net from "node:net";
import { startCoreSimulator, type CoreSimulator } from "../../src/sim/index";
import { scratchDir } from "../helpers/scratch";
import { makeTestApp } from "../helpers/app";

const ROOT = resolve(import.meta.dir, "../..");
const accounts = [
  { email: "a@doctor.test", password: "pw-a" },
  { email: "b@doctor.test", password: "pw-b" },
];

let sim: CoreSimulator;
beforeAll(async () => {
  sim = await startCoreSimulator({ difficulty: 1, accounts });
});
afterAll(() => sim.stop());

async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function doctor(config: unknown, json = true): Promise<{ code: number; out: string; report: any }> {
  const dir = scratchDir("svc-doctor-");
  const path = join(dir, "config.json");
  writeFileSync(path, JSON.stringify(config));
  const proc = Bun.spawn(["bun", "src/main.ts", "doctor", "--config", path, ...(json ? ["--json"] : [])], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: dir },
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = await new Response(proc.stdout).text();
  const code = await proc.exited;
  return { code, out, report: json ? JSON.parse(out) : null };
}

const rowOf = (report: any, prefix: string) => report.checks.find((c: any) => c.check.startsWith(prefix));

describe("svc-gateway doctor", () => {
  test("a healthy set-up: exit 0, every check ok or skipped, each account logged in, no completion", async () => {
    const before = sim.requests({ path: "/api/v0/chat/completion" }).length;
    const { code, report } = await doctor({ keys: ["sk-1"], accounts, upstream: { base_url: sim.url } });
    expect(code).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.checks.filter((c: any) => c.status === "fail" || c.status === "warn")).toEqual([]);
    for (const name of ["config", "data directory", "core TCP", "core login path", "clock", "account a@doctor.test", "account b@doctor.test", "redis"]) expect(rowOf(report, name)).toBeDefined();
    expect(rowOf(report, "core login path").result).toContain("with JSON");
    expect(rowOf(report, "account a@doctor.test").result).toBe("login succeeded");
    expect(sim.requests({ path: "/api/v0/chat/completion" }).length).toBe(before);
  }, 30_000);

  test("a wrong password and a dead SOCKS proxy: exit 1, rows naming the class and what to do; secrets stay out", async () => {
    const port = await closedPort();
    const config = {
      keys: ["sk-1"],
      upstream: { base_url: sim.url },
      proxies: [{ id: "px", type: "socks5", host: "127.0.0.1", port, username: "u", password: "proxy-secret" }],
      accounts: [{ email: "a@doctor.test", password: "wrong-secret" }, { email: "b@doctor.test", password: "pw-b", proxy_id: "px" }],
    };
    const { code, report, out } = await doctor(config);
    expect(code).toBe(1);
    const a = rowOf(report, "account a@doctor.test");
    expect(a.status).toBe("fail");
    expect(a.result).toContain("credential_rejected");
    expect(a.action).toContain("password");
    const b = rowOf(report, "account b@doctor.test (via px)");
    expect(b.status).toBe("fail");
    expect(b.result).toContain(`proxy_unreachable`);
    expect(b.result).toContain(`socks5 proxy 127.0.0.1:${port} unreachable (ECONNREFUSED)`);
    expect(rowOf(report, "proxy px").status).toBe("fail");
    expect(out).not.toContain("proxy-secret");
    expect(out).not.toContain("wrong-secret");
  }, 30_000);

  test("core on a closed port: exit 1 at the TCP row, and the table says what to do", async () => {
    const port = await closedPort();
    const { code, out } = await doctor({ accounts, upstream: { base_url: `http://127.0.0.1:${port}` } }, false);
    expect(code).toBe(1);
    expect(out).toContain("WHAT TO DO");
    expect(out).toMatch(new RegExp(`FAIL core TCP\\s+127\\.0\\.0\\.1:${port}: ECONNREFUSED`));
    expect(out).toContain("1 check(s) failed");
  }, 30_000);

  test("a base URL that is a web site: the login path row says it is not core's API", async () => {
    const web = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("<html>hi</html>", { status: 404, headers: { "Content-Type": "text/html" } }) });
    try {
      const { code, report } = await doctor({ upstream: { base_url: `http://127.0.0.1:${web.port}` } });
      expect(code).toBe(1);
      const r = rowOf(report, "core login path");
      expect(r.status).toBe("fail");
      expect(r.result).toContain("HTTP 404 with a web page: this is not core's API");
      expect(r.action).toContain("upstream.base_url");
    } finally {
      web.stop(true);
    }
  }, 30_000);

  test("GET /admin/doctor answers the same report for the running configuration", async () => {
    const t = await makeTestApp({ config: { keys: ["sk-1"], accounts }, env: { SVC_CORE_BASE_URL: sim.url } });
    try {
      const r = await t.req("/admin/doctor", { headers: { Authorization: "Bearer test-admin-key" } });
      expect(r.status).toBe(200);
      const report = await r.json();
      expect(report.ok).toBe(true);
      expect(rowOf(report, "account b@doctor.test").status).toBe("ok");
      expect((await t.req("/admin/doctor")).status).toBe(401);
    } finally {
      await t.built.close();
    }
  });
});
