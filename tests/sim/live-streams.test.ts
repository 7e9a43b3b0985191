// The simulator counts bodies streaming per account and their peaks: the multi-instance limit tests read it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { RawCore, TEST_ACCOUNTS, startTestSimulator } from "../helpers/sim";
import type { CoreSimulator } from "../../src/sim/index";

let sim: CoreSimulator;
beforeAll(async () => {
  sim = await startTestSimulator();
});
afterAll(() => sim.stop());

test("a body counts as live while it streams, its peak stays after it ends, reset forgets the peak", async () => {
  const a = new RawCore(sim.url);
  await a.loginAs(TEST_ACCOUNTS[0]!);
  const b = new RawCore(sim.url);
  await b.loginAs(TEST_ACCOUNTS[0]!);
  const s1 = await a.session();
  const s2 = await b.session();
  const r1 = await a.completion(s1, "[[sim:slow-tokens first_token_ms=300 delay_ms=5]] hello");
  const r2 = await b.completion(s2, "[[sim:slow-tokens first_token_ms=300 delay_ms=5]] hello");
  const during = sim.state().streams;
  const id = Object.keys(during.live)[0]!;
  expect(during.live[id]).toBe(2);
  expect(during.live_total).toBe(2);
  await r1.text();
  await r2.text();
  const after = sim.state().streams;
  expect(after.live).toEqual({});
  expect(after.peak[id]).toBe(2);
  expect(after.peak_total).toBe(2);
  sim.reset();
  expect(sim.state().streams.peak_total).toBe(0);
});

test("a body the client cancels stops counting", async () => {
  const a = new RawCore(sim.url);
  await a.loginAs(TEST_ACCOUNTS[1]!);
  const r = await a.completion(await a.session(), "[[sim:slow-tokens first_token_ms=300 delay_ms=5]] hello");
  expect(sim.state().streams.live_total).toBe(1);
  await r.body!.cancel();
  for (let i = 0; i < 100 && sim.state().streams.live_total > 0; i++) await Bun.sleep(10);
  expect(sim.state().streams.live_total).toBe(0);
});
