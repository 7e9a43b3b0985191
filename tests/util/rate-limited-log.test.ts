// Issue 30, item 6: while Redis is down every request used to add 2–3 warn lines. One line per kind per window,
// and the next line of a kind says how many were held back. Driven by an injected clock, not timers.
import { describe, expect, test } from "bun:test";
import { createLogger } from "../../src/util/log";
import { RateLimitedLog, rateLimitedLogger } from "../../src/util/rate-limited-log";

function setup(level: "debug" | "warn" = "debug") {
  const lines: Record<string, unknown>[] = [];
  let now = 1_000_000;
  const log = createLogger(level, (l) => lines.push(JSON.parse(l)));
  return { lines, log, clock: { now: () => now, advance: (ms: number) => void (now += ms) } };
}

describe("RateLimitedLog", () => {
  test("one line per kind per 10 s; the next one carries the count of those held back", () => {
    const { lines, log, clock } = setup();
    const limited = new RateLimitedLog(log, { now: clock.now });
    for (let i = 0; i < 1000; i++) {
      limited.warn("usage not counted", { error: `e${i}` });
      clock.advance(5); // 1,000 calls over 5 s
    }
    expect(lines.map((l) => [l.msg, l.error, l.suppressed])).toEqual([["usage not counted", "e0", undefined]]);
    clock.advance(5_000); // 10 s after the first line
    limited.warn("usage not counted", { error: "later" });
    expect(lines.at(-1)).toEqual(expect.objectContaining({ level: "warn", msg: "usage not counted", error: "later", suppressed: 999 }));
    // The window starts again at the line just written.
    clock.advance(9_999);
    expect(limited.warn("usage not counted")).toBe(false);
    clock.advance(1);
    expect(limited.warn("usage not counted")).toBe(true);
    expect(lines).toHaveLength(3);
    expect(lines.at(-1)!.suppressed).toBe(1);
  });

  test("kinds are limited apart: a second kind is written at once", () => {
    const { lines, log, clock } = setup();
    const limited = new RateLimitedLog(log, { now: clock.now });
    limited.warn("a");
    limited.warn("a");
    limited.error("b");
    limited.warn("same message, own kind", {}, "kind-1");
    limited.warn("same message, own kind", {}, "kind-2");
    expect(lines.map((l) => `${l.level}:${l.msg}`)).toEqual(["warn:a", "error:b", "warn:same message, own kind", "warn:same message, own kind"]);
  });

  test("a window of another length", () => {
    const { lines, log, clock } = setup();
    const limited = new RateLimitedLog(log, { now: clock.now, windowMs: 100 });
    limited.warn("x");
    clock.advance(99);
    limited.warn("x");
    clock.advance(1);
    limited.warn("x");
    expect(lines.map((l) => l.suppressed)).toEqual([undefined, 1]);
  });
});

describe("rateLimitedLogger", () => {
  test("limits warn and error lines; info and debug pass through; the level is the wrapped logger's", () => {
    const { lines, log, clock } = setup();
    const wrapped = rateLimitedLogger(log, { now: clock.now });
    for (let i = 0; i < 3; i++) {
      wrapped.warn("shared pool update failed", { op: "release" });
      wrapped.error("shared state store unavailable");
      wrapped.info("shared config adopted");
      wrapped.debug("detail");
    }
    expect(lines.map((l) => l.msg)).toEqual([
      "shared pool update failed",
      "shared state store unavailable",
      "shared config adopted",
      "detail",
      "shared config adopted",
      "detail",
      "shared config adopted",
      "detail",
    ]);
    wrapped.level = "warn";
    expect(log.level).toBe("warn");
    wrapped.info("hidden");
    expect(lines.at(-1)!.msg).toBe("detail");
  });
});
