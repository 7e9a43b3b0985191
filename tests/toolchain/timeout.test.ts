// Proves the suite-wide timeout of tests/setup/timeout.ts is in force: this test needs longer than bun's
// 5 s default and would fail on it.
import { expect, test } from "bun:test";

test("a test may run past bun's 5 s default", async () => {
  const started = Date.now();
  await Bun.sleep(6_000);
  expect(Date.now() - started).toBeGreaterThanOrEqual(5_900);
});
