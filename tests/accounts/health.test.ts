// Issue 32: the account health state machine on its own — thresholds per class, exponential backoff with
// jitter and a cap, the bounded history, and which successes end which cooldowns. The pool is the real one.
import { describe, expect, test } from "bun:test";
import { AccountPool } from "../../src/accounts/pool";
import { AccountHealth, HEALTH_EVENTS_KEPT } from "../../src/accounts/health";
import { backoffMs, classifyFailure, classifyLoginRefusal, DEFAULT_POLICY, maskIdentifier } from "../../src/accounts/health-classes";
import { CoreError, LoginError, withOrigin } from "../../src/core/errors";
import { createLogger } from "../../src/util/log";

function setup(probe: (a: string) => Promise<void> = async () => {}) {
  let now = 1_000_000;
  const pool = new AccountPool({ accounts: () => ["a", "b"], limits: () => ({ accountMaxInflight: 1, globalMaxInflight: 10, maxQueue: 10, queueWaitMs: 1000 }) });
  const logs: string[] = [];
  const health = new AccountHealth({ pool, log: createLogger("debug", (l) => logs.push(l)), probe, now: () => now, random: () => 1 });
  return { pool, health, logs, advance: (ms: number) => (now += ms) };
}

describe("backoff", () => {
  test("doubles per cooldown in a row, adds up to 25 % jitter, and never passes the cap", () => {
    const p = { threshold: 1, baseMs: 1000, capMs: 10_000, disableAfter: 0 };
    expect(backoffMs(p, 0, () => 0)).toBe(1000);
    expect(backoffMs(p, 0, () => 1)).toBe(1250);
    expect(backoffMs(p, 2, () => 0.5)).toBe(4500);
    expect(backoffMs(p, 20, () => 1)).toBe(10_000);
  });
});

describe("classification", () => {
  test("login refusals about the password are credential_rejected; other texts are a suspected ban, said to be a heuristic", () => {
    expect(classifyLoginRefusal("login failed: wrong password").cls).toBe("credential_rejected");
    expect(classifyLoginRefusal("login failed: account not found").cls).toBe("credential_rejected");
    const ban = classifyLoginRefusal("login failed: user is disabled");
    expect(ban.cls).toBe("suspected_ban");
    expect(ban.detail).toContain("§11");
  });

  test("core errors map by kind, status and origin; the request's own faults are not the account's", () => {
    expect(classifyFailure(new CoreError("upstream_auth", "x", 401))!.cls).toBe("token_expired");
    expect(classifyFailure(new CoreError("upstream_busy", "x", 200))!.cls).toBe("busy_session");
    expect(classifyFailure(new CoreError("upstream_pow_failed", "x", 400))!.cls).toBe("pow_rejected");
    expect(classifyFailure(new CoreError("upstream_error", "x", 502))!.cls).toBe("core_error");
    expect(classifyFailure(new CoreError("upstream_error", "x", 200))!.cls).toBe("suspected_ban");
    expect(classifyFailure(new CoreError("upstream_empty_output", "x"))!.cls).toBe("rate_limited");
    expect(classifyFailure(withOrigin(new CoreError("upstream_error", "x"), "proxy"))!.cls).toBe("proxy_unreachable");
    expect(classifyFailure(withOrigin(new LoginError("unreachable", "x", 404), "base_url"))!.cls).toBe("base_url_wrong");
    expect(classifyFailure(new LoginError("unreachable", "x", 503))!.cls).toBe("core_error");
    expect(classifyFailure(new CoreError("input_exceeds_limit", "x"))).toBeNull();
    expect(classifyFailure(new Error("x"))).toBeNull();
  });

  test("identifiers are masked for logs", () => {
    expect(maskIdentifier("alice@example.com")).toBe("al***@example.com");
    expect(maskIdentifier("+8613800138000")).toBe("+861****000");
    expect(maskIdentifier("token:abcdef123456")).toBe("token:abcdef…");
  });
});

describe("the state machine", () => {
  test("a class below its threshold is recorded only; at the threshold the account cools down and leaves rotation", () => {
    const { health, pool } = setup();
    health.record("a", "suspected_ban", "refused");
    expect(health.get("a").state).toBe("healthy");
    expect(pool.inCooldown("a")).toBe(false);
    health.record("a", "suspected_ban", "refused again");
    const r = health.get("a");
    expect(r.state).toBe("cooling_down");
    expect(r.class).toBe("suspected_ban");
    expect(r.until! - r.since).toBe(DEFAULT_POLICY.suspected_ban.baseMs * 1.25);
    expect(pool.inCooldown("a")).toBe(true);
    expect(pool.inCooldown("b")).toBe(false);
    health.close();
  });

  test("core-wide classes never cool an account down, however often", () => {
    const { health, pool } = setup();
    for (let i = 0; i < 20; i++) for (const c of ["network", "core_error", "timeout", "base_url_wrong", "busy_session", "token_expired"] as const) health.record("a", c, "x");
    expect(health.get("a").state).toBe("healthy");
    expect(pool.inCooldown("a")).toBe(false);
    health.close();
  });

  test("the history keeps the last 100 events, oldest dropped first", () => {
    const { health } = setup();
    for (let i = 0; i < 130; i++) health.record("a", "network", `n${i}`, `req-${i}`);
    const ev = health.get("a").events;
    expect(ev.length).toBe(HEALTH_EVENTS_KEPT);
    expect(ev[0]!.detail).toBe("n30");
    expect(ev.at(-1)!.request_id).toBe("req-129");
    expect(health.view("a").events[0]!.detail).toBe("n129");
    health.close();
  });

  test("a successful call does not end a rate-limit cooldown; an answer does; a login ends a credential cooldown", () => {
    const { health, pool } = setup();
    health.setPolicy({ rate_limited: { threshold: 1 } });
    health.record("a", "rate_limited", "empty");
    health.success("a", "call");
    expect(health.get("a").state).toBe("cooling_down");
    health.success("a", "answer");
    expect(health.get("a").state).toBe("healthy");
    expect(pool.inCooldown("a")).toBe(false);
    health.record("b", "credential_rejected", "wrong password");
    expect(health.get("b").state).toBe("cooling_down");
    health.success("b", "login");
    expect(health.get("b").state).toBe("healthy");
    health.close();
  });

  test("a failed probe for the account's own reason escalates; for core's, it re-cools without counting toward the disable", async () => {
    let fail: unknown = new LoginError("rejected", "login failed: user is disabled", 200);
    const { health } = setup(async () => {
      throw fail;
    });
    health.record("a", "credential_rejected", "wrong password");
    await health.probe("a");
    expect(health.get("a").streak).toBe(1);
    expect(health.get("a").class).toBe("suspected_ban");
    fail = new CoreError("upstream_error", "core down", 502);
    await health.probe("a");
    expect(health.get("a").state).toBe("cooling_down");
    expect(health.get("a").streak).toBe(1);
    expect(health.get("a").class).toBe("suspected_ban");
    health.close();
  });
});
