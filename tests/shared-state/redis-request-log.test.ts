// The request log with store.backend redis (issue 31): two gateways on one real redis-server and one simulator;
// a request answered by one instance is found by its X-Request-Id, listed and counted on the other, and an
// instance started later catches up from the stream.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createLogger } from "../../src/util/log";
import { startGateway, type RunningGateway } from "../../src/server";
import type { CoreSimulator } from "../../src/sim/index";
import { REDIS_SERVER, SKIP_REASON, startRedis, type TestRedis } from "../helpers/redis";
import { scratchDir } from "../helpers/scratch";
import { startTestSimulator } from "../helpers/sim";

if (!REDIS_SERVER) console.warn(`skipping tests/shared-state/redis-request-log.test.ts: ${SKIP_REASON}`);
const d = REDIS_SERVER ? describe : describe.skip;

const KEY = "sk-redis-reqlog";
const ADMIN = { Authorization: "Bearer redis-admin-key" };
let redis: TestRedis;
let sim: CoreSimulator;
const running: RunningGateway[] = [];

async function instance(): Promise<{ gw: RunningGateway; url: string }> {
  const dir = scratchDir("svc-gw-redis-reqlog-");
  const gw = await startGateway({
    loaded: { config: { keys: [KEY], accounts: [{ email: "a@sim.test", password: "pw" }] }, source: "test", path: join(dir, "config.json"), data_dir: dir, env_backed: false, env_source_present: false, env_writeback_enabled: false, warnings: [] },
    log: createLogger("error", () => {}),
    port: 0,
    host: "127.0.0.1",
    env: { SVC_ADMIN_KEY: "redis-admin-key", SVC_CORE_BASE_URL: sim.url, SVC_REDIS_URL: redis.url, SVC_REDIS_PREFIX: "reqlog-test:" },
    quiet: true,
  });
  running.push(gw);
  return { gw, url: `http://127.0.0.1:${gw.port}` };
}

const chat = (url: string) =>
  fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({ model: "core-v4-flash", messages: [{ role: "user", content: "shared log" }] }),
  });

d("the request log shared through Redis", () => {
  beforeAll(async () => {
    redis = await startRedis();
    sim = await startTestSimulator();
  }, 60_000);
  afterAll(async () => {
    for (const gw of running) await gw.drain().catch(() => {});
    await sim?.stop();
    await redis?.stop();
  });

  test("a request answered by one instance is found, listed and counted on the other; a late instance catches up", async () => {
    const a = await instance();
    const b = await instance();
    const ids: string[] = [];
    for (const url of [a.url, a.url, b.url]) {
      const r = await chat(url);
      expect(r.status).toBe(200);
      await r.text();
      ids.push(r.headers.get("x-request-id")!);
    }
    // A's rows reach the stream when A writes its batch (within its flush interval); B reads on every admin read.
    const onB = async (id: string) => (await fetch(`${b.url}/admin/requests/${id}`, { headers: ADMIN })).status;
    for (let i = 0; i < 100 && (await onB(ids[0]!)) !== 200; i++) await Bun.sleep(50);
    const row = await (await fetch(`${b.url}/admin/requests/${ids[0]}`, { headers: ADMIN })).json();
    expect(row.instance).toBe(a.gw.ctx.ops!.instance);
    expect(row.instance).not.toBe(b.gw.ctx.ops!.instance);
    const listOn = async (url: string) => ((await (await fetch(`${url}/admin/requests?surface=chat`, { headers: ADMIN })).json()).items as { request_id: string }[]).map((x) => x.request_id).sort();
    for (let i = 0; i < 100 && (await listOn(b.url)).length < 3; i++) await Bun.sleep(50);
    expect(await listOn(b.url)).toEqual([...ids].sort());
    for (let i = 0; i < 100 && (await listOn(a.url)).length < 3; i++) await Bun.sleep(50);
    expect(await listOn(a.url)).toEqual([...ids].sort());
    const traffic = await (await fetch(`${b.url}/admin/traffic`, { headers: ADMIN })).json();
    expect(traffic.last_hour.requests).toBeGreaterThanOrEqual(3);

    const late = await instance();
    expect(await listOn(late.url)).toEqual([...ids].sort());

    // The audit log shares the stream: a key added on A is in B's audit, once, with its change.
    const added = await fetch(`${a.url}/admin/keys`, { method: "POST", headers: { ...ADMIN, "Content-Type": "application/json" }, body: JSON.stringify({ key: "sk-redis-audit", name: "shared-audit" }) });
    expect(added.status).toBe(200);
    const auditOn = async (url: string) => (await (await fetch(`${url}/admin/audit`, { headers: ADMIN })).json()).items as { route: string; changes: { path: string }[] }[];
    for (let i = 0; i < 100 && (await auditOn(b.url)).length === 0; i++) await Bun.sleep(50);
    const auditB = (await auditOn(b.url)).filter((e) => e.route === "/admin/keys");
    expect(auditB.length).toBe(1);
    expect(auditB[0]!.changes.some((c) => c.path.startsWith("api_keys[shared-audit "))).toBe(true);
    expect((await auditOn(a.url)).filter((e) => e.route === "/admin/keys").length).toBe(1);
  }, 60_000);
});
