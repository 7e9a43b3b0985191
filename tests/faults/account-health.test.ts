// Issue 32: account health against the simulator's fault controls, over real sockets. A banned-looking account
// cools down, is probed (never with a completion) when the cooldown ends, and comes back once core lets it in;
// one that stays banned waits for the operator. Cooldowns are shortened through the tracker's policy.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { startCoreSimulator, type CoreSimulator } from "../../src/sim/index";
import { eventually, LIVE_ADMIN_KEY, startLiveGateway, type LiveGateway } from "../helpers/live-gateway";

const A = "a@health.test";
const accounts = [
  { email: A, password: "pw-a" },
  { email: "b@health.test", password: "pw-b" },
];
const KEY = "sk-health";

let sim: CoreSimulator;
let gw: LiveGateway | null = null;

beforeAll(async () => {
  sim = await startCoreSimulator({ difficulty: 1, accounts });
});
afterAll(() => sim.stop());
afterEach(async () => {
  sim.reset({ hard: true });
  await gw?.stop();
  gw = null;
});

async function gateway(): Promise<LiveGateway> {
  gw = await startLiveGateway({ config: { keys: [KEY], accounts }, coreUrl: sim.url });
  // Short cooldowns: the machine is the same, only the clock of the backoff is shorter.
  gw.gw.ctx.health.setPolicy({ suspected_ban: { baseMs: 150, capMs: 2000 } });
  return gw;
}

const chat = (g: LiveGateway, content: string) =>
  fetch(`${g.url}/v1/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({ model: "core-v4-flash-nothinking", messages: [{ role: "user", content }] }),
  });

async function health(g: LiveGateway, id = A): Promise<any> {
  const r = await fetch(`${g.url}/admin/accounts/${encodeURIComponent(id)}/health`, { headers: { Authorization: `Bearer ${LIVE_ADMIN_KEY}` } });
  expect(r.status).toBe(200);
  return r.json();
}

const completionsOf = (account: string) => sim.requests({ path: "/api/v0/chat/completion", account }).length;

describe("a banned-looking account", () => {
  test("cools down after two refused logins, is probed when the cooldown ends, and is healthy again once core lets it in", async () => {
    const g = await gateway();
    sim.ban(A);
    // Each request still gets an answer: the refused account is skipped for the other one.
    for (let i = 0; i < 2; i++) expect((await chat(g, `q${i}`)).status).toBe(200);
    const cooling = await health(g);
    expect(cooling.state).toBe("cooling_down");
    expect(cooling.class).toBe("suspected_ban");
    expect(Date.parse(cooling.until)).toBeGreaterThan(Date.now() - 5000);
    const failures = cooling.events.filter((e: any) => e.kind === "failure");
    expect(failures.length).toBe(2);
    expect(failures[0].detail).toContain("user is disabled");
    expect(failures[0].detail).toContain("§11");
    // The 503-free requests carry their ids into the history.
    expect(failures.every((e: any) => typeof e.request_id === "string" && e.request_id.length > 0)).toBe(true);
    expect(g.queue().cooldown_accounts).toEqual([A]);
    // The log names the account masked, and the class.
    const logged = g.lines("account failure").filter((l) => l.class === "suspected_ban");
    expect(logged.length).toBe(2);
    expect(JSON.stringify(logged)).not.toContain(A);
    expect(logged[0]!.account).toBe("a***@health.test");

    sim.ban(A, false);
    const before = completionsOf(A);
    expect(await eventually(() => g.gw.ctx.health.get(A).state === "healthy", 5000)).toBe(true);
    const back = await health(g);
    expect(back.events.map((e: any) => e.kind).slice(0, 3)).toEqual(["recovered", "probe", "cooldown"]);
    expect(g.queue().cooldown_accounts).toEqual([]);
    // The probe logged in and listed sessions; it never started a completion.
    expect(completionsOf(A)).toBe(before);
    expect(sim.requests({ path: "/api/v0/chat_session/fetch_page", account: A }).length).toBe(1);
  });

  test("one that stays banned is probed with growing cooldowns, then waits for the operator; a reset brings it back", async () => {
    const g = await gateway();
    sim.ban(A);
    for (let i = 0; i < 2; i++) expect((await chat(g, `q${i}`)).status).toBe(200);
    expect(await eventually(() => g.gw.ctx.health.get(A).state === "disabled_pending_operator", 8000)).toBe(true);
    const h = await health(g);
    const cooldowns = h.events.filter((e: any) => e.kind === "cooldown").reverse();
    expect(cooldowns.map((e: any) => e.detail.match(/cooldown (\d) in a row/)?.[1])).toEqual(["1", "2", "3"]);
    expect(h.events.filter((e: any) => e.kind === "probe").length).toBe(3);
    expect(h.events[0].kind).toBe("disabled");
    expect(g.queue().cooldown_accounts).toEqual([A]);
    expect(completionsOf(A)).toBe(0);

    sim.ban(A, false);
    const r = await fetch(`${g.url}/admin/accounts/${A}/health/reset`, { method: "POST", headers: { Authorization: `Bearer ${LIVE_ADMIN_KEY}` } });
    expect(r.status).toBe(200);
    expect((await r.json()).state).toBe("healthy");
    expect(g.queue().cooldown_accounts).toEqual([]);
    // Served again: the least recently used account is A now.
    expect((await chat(g, "after the reset")).status).toBe(200);
    expect(completionsOf(A)).toBe(1);
  });

  test("a token-only account whose token core rejects is probed with a fresh login attempt and ends up waiting for the operator", async () => {
    const TOKEN = "sim-preset-token-for-health-0001";
    sim.addAccount({ email: "t@health.test", password: "pw-t", token: TOKEN });
    gw = await startLiveGateway({ config: { keys: [KEY], accounts: [{ token: TOKEN }, accounts[1]!] }, coreUrl: sim.url });
    gw.gw.ctx.health.setPolicy({ credential_rejected: { baseMs: 100, capMs: 1000 } });
    const id = gw.gw.ctx.accounts.ids()[0]!;
    expect(id.startsWith("token:")).toBe(true);
    sim.expireTokens("t@health.test");
    expect((await chat(gw, "served by the other account")).status).toBe(200);
    expect(await eventually(() => gw!.gw.ctx.health.get(id).state === "disabled_pending_operator", 8000)).toBe(true);
    const h = gw.gw.ctx.health.view(id);
    expect(h.class).toBe("credential_rejected");
    // The request's failure, then three probes: cooldowns 1, 2 and 3 in a row, and the fourth failure disables.
    expect(h.events.filter((e) => e.kind === "failure" && e.class === "credential_rejected").length).toBe(4);
    expect(h.events.filter((e) => e.kind === "probe").length).toBe(3);
    expect(h.events.find((e) => e.kind === "failure")!.detail).toContain("no password");
  });

  test("health of an unknown account is a 404 in the admin shape; any identifier form finds the account", async () => {
    const g = await gateway();
    const r = await fetch(`${g.url}/admin/accounts/nobody@x.test/health`, { headers: { Authorization: `Bearer ${LIVE_ADMIN_KEY}` } });
    expect(r.status).toBe(404);
    expect((await r.json()).detail).toContain("nobody@x.test");
    expect((await health(g, "A@Health.TEST")).identifier).toBe(A);
    expect((await health(g, "A@Health.TEST")).state).toBe("healthy");
  });
});
