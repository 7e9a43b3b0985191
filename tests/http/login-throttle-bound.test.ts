// Issue 15 item 5: every admin credential check now records failures per address, so the table must stay
// bounded when guesses come from very many addresses (an IPv6 range).
import { describe, expect, test } from "bun:test";
import { LoginThrottle, MAX_TRACKED_ADDRESSES } from "../../src/http/login-throttle";

describe("login throttle table bound", () => {
  test("failures from more addresses than the bound never grow the table past it", () => {
    let now = 1_000_000;
    const t = new LoginThrottle(() => now);
    let most = 0;
    for (let i = 0; i < MAX_TRACKED_ADDRESSES * 3; i++) {
      t.fail(`2001:db8::${i.toString(16)}`);
      most = Math.max(most, t.trackedAddresses());
      now += 1;
    }
    expect(most).toBeLessThanOrEqual(MAX_TRACKED_ADDRESSES);
  });

  test("the most recent addresses are kept: a fresh lock survives a flood of older entries", () => {
    let now = 1_000_000;
    const t = new LoginThrottle(() => now);
    for (let i = 0; i < MAX_TRACKED_ADDRESSES; i++) t.fail(`2001:db8::${i.toString(16)}`);
    for (let i = 0; i < 10; i++) t.fail("198.51.100.7");
    for (let i = 0; i < 100; i++) t.fail(`2001:db8:1::${i.toString(16)}`);
    expect(t.retryAfter("198.51.100.7")).toBeGreaterThan(0);
  });

  test("expired entries are swept first", () => {
    let now = 1_000_000;
    const t = new LoginThrottle(() => now);
    for (let i = 0; i < MAX_TRACKED_ADDRESSES; i++) t.fail(`old-${i}`);
    now += 11 * 60 * 1000;
    t.fail("new-1");
    expect(t.trackedAddresses()).toBe(1);
  });
});
