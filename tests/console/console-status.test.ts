// GET /admin/console/status: the overview's demo flag, uptime, pool problems and recent failed conversations.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startLiveGateway, TEST_ADMIN_KEY, type LiveGateway } from "../helpers/gateway";

const AUTH = { Authorization: `Bearer ${TEST_ADMIN_KEY}` };

describe("demo mode (no core origin)", () => {
  let gw: LiveGateway;
  beforeAll(async () => {
    gw = await startLiveGateway({ config: {} });
  });
  afterAll(() => gw?.stop());

  test("needs an admin credential", async () => {
    expect((await fetch(`${gw.url}/admin/console/status`)).status).toBe(401);
  });

  test("says core is the simulator and how long the process has run", async () => {
    const r = await fetch(`${gw.url}/admin/console/status`, { headers: AUTH });
    expect(r.status).toBe(200);
    const b = await r.json();
    expect(b.success).toBe(true);
    expect(b.demo).toBe(true);
    expect(typeof b.version).toBe("string");
    expect(b.uptime_seconds).toBeGreaterThanOrEqual(0);
    expect(Date.parse(b.started_at)).toBeLessThanOrEqual(Date.now());
    expect(b.accounts_total).toBe(0);
    expect(b.recent_errors).toEqual([]);
  });
});

describe("a real core origin", () => {
  let gw: LiveGateway;
  beforeAll(async () => {
    // Nothing listens on port 9: every call to core fails, which is what the recent-errors list is for.
    gw = await startLiveGateway({
      config: { keys: ["sk-status"], accounts: [{ email: "a@status.test", password: "pw" }, { email: "b@status.test", password: "pw" }] },
      env: { SVC_CORE_BASE_URL: "http://127.0.0.1:9" },
    });
  });
  afterAll(() => gw?.stop());

  test("demo is false; a cooling account and a failed login are counted", async () => {
    gw.gw.ctx.pool.setCooldown("a@status.test", 60_000);
    gw.gw.ctx.accounts.mark("b@status.test", "failed", "wrong password");
    const b = await (await fetch(`${gw.url}/admin/console/status`, { headers: AUTH })).json();
    expect(b.demo).toBe(false);
    expect(b.accounts_total).toBe(2);
    expect(b.accounts_in_cooldown).toBe(1);
    expect(b.accounts_failed).toBe(1);
  });

  test("a failed conversation is listed among the recent errors, without its body", async () => {
    const r = await fetch(`${gw.url}/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: "Bearer pass-through-token", "Content-Type": "application/json" },
      body: JSON.stringify({ model: "core-v4-flash", messages: [{ role: "user", content: "secret question" }] }),
    });
    expect(r.status).toBeGreaterThanOrEqual(500);
    const b = await (await fetch(`${gw.url}/admin/console/status`, { headers: AUTH })).json();
    expect(b.recent_errors.length).toBe(1);
    const e = b.recent_errors[0];
    expect(e.id).toMatch(/^chat_[0-9a-f]{24}$/);
    expect(e.surface).toBe("chat");
    expect(e.status_code).toBe(r.status);
    expect(JSON.stringify(b)).not.toContain("secret question");
  });
});
