// The idle collection (src/util/idle-gc.ts): one collection once the server has been quiet for quietMs after the
// last request's end, none while it is busy. The clock is the test's own, so nothing here depends on timing
// beyond a timer firing at all.
import { describe, expect, test } from "bun:test";
import { idleGc } from "../../src/util/idle-gc";

const tick = (ms = 5) => Bun.sleep(ms);

describe("idle collection", () => {
  test("collects once, after the quiet period since the last touch, not the first", async () => {
    let clock = 0;
    let collected = 0;
    const gc = idleGc({ quietMs: 1, busy: () => false, collect: () => collected++, now: () => clock });
    gc.touch();
    clock = 0.5;
    gc.touch(); // the last end: quiet until 1.5
    clock = 1.2; // past the first touch's quiet period, not the last's
    await tick();
    expect(collected).toBe(0);
    clock = 1.6;
    await tick();
    expect(collected).toBe(1);
    await tick();
    expect(collected).toBe(1); // once per burst
    gc.touch();
    clock = 5;
    await tick();
    expect(collected).toBe(2);
    gc.stop();
  });

  test("waits while busy, then collects", async () => {
    let busy = true;
    let collected = 0;
    let clock = 0;
    const gc = idleGc({ quietMs: 1, busy: () => busy, collect: () => collected++, now: () => clock });
    gc.touch();
    clock = 10; // quiet, but requests are still running
    await tick();
    await tick();
    expect(collected).toBe(0);
    busy = false;
    await tick();
    expect(collected).toBe(1);
    gc.stop();
  });

  test("stop cancels a pending collection", async () => {
    let collected = 0;
    const gc = idleGc({ quietMs: 1, busy: () => false, collect: () => collected++, now: () => 100 });
    gc.touch();
    gc.stop();
    await tick();
    expect(collected).toBe(0);
  });
});
