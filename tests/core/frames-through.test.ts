// A completion's frames read through a step in the completion's own read (JoinedRounds.through, issue 35: one
// suspended frame per open stream instead of two) against the same frames read as a stream with the step applied
// by the reader, on the simulator: the same batches out, the step's end after core's, a failure mid-answer as the
// step's input, and a step that throws ending the completion.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startCompletion } from "../../src/core/attempt";
import { framesThrough, type CoreFrame, type FrameStep } from "../../src/core/completion";
import { coreFixture, completionInput, loginA, type Fixture } from "./core-fixture";

let f: Fixture;
beforeAll(async () => {
  f = await coreFixture();
});
afterAll(() => f.stop());

/** Names what it is handed (a batch of frames in, one label per non-comment frame out). */
function labels(): FrameStep<string> & { ends: number } {
  return {
    ends: 0,
    // The event's name (two completions differ in their ids and times, not in what core sends when).
    push: (frames) => frames.filter((x) => !x.comment).map((x) => (x.failure ? `failure:${x.failure}` : x.event)),
    end() {
      this.ends++;
      return ["end"];
    },
  };
}

/** Until core has no body streaming (at most 2 s: the earlier tests' aborted streams close on core's side). */
async function noLiveStreams(): Promise<void> {
  for (let i = 0; i < 100 && f.sim.liveStreams.view().live_total > 0; i++) await Bun.sleep(20);
}

async function open(scenario: Record<string, unknown>) {
  const token = await loginA(f.client);
  f.sim.enqueue(scenario as never);
  return startCompletion(f.client, token, completionInput(), { signal: new AbortController().signal, idleTimeoutMs: 150 });
}

/** Through the completion's own read, to the end. */
async function through(scenario: Record<string, unknown>): Promise<string[]> {
  const step = labels();
  const src = framesThrough((await open(scenario)) as unknown, step)!;
  expect(src).not.toBeNull();
  const out: string[] = [];
  for (let b = await src.next(); b !== null; b = await src.next()) {
    expect(b.length).toBeGreaterThan(0);
    out.push(...b);
  }
  expect(await src.next()).toBeNull();
  expect(step.ends).toBe(1);
  return out;
}

/** The frames as a stream, the step applied by this reader. */
async function byReader(scenario: Record<string, unknown>): Promise<string[]> {
  const step = labels();
  const c = await open(scenario);
  const out: string[] = [];
  for await (const batch of c.frames as unknown as AsyncIterable<CoreFrame[]>) out.push(...step.push(batch));
  out.push(...step.end());
  return out;
}

describe("a completion's frames through a step", () => {
  test("an answer over continue rounds: the same labels as a reader applying the step, the step's end once", async () => {
    const scenario = { scenario: "incomplete-continue" };
    const a = await through(scenario);
    const b = await byReader(scenario);
    expect(a).toEqual(b);
    expect(a.filter((x) => x === "ready").length).toBeGreaterThan(1);
    expect(a.at(-1)).toBe("end");
  });

  test("core silent past the idle timeout: the failure frame goes through the step, then its end", async () => {
    const scenario = { scenario: "stall", params: { ms: 1000 } };
    const a = await through(scenario);
    expect(a.slice(-2)).toEqual(["failure:upstream_timeout", "end"]);
    expect(await byReader(scenario)).toEqual(a);
  });

  test("a step that throws: the read rejects with its error, core's request is aborted, and nothing more comes", async () => {
    await noLiveStreams();
    const c = await open({ scenario: "stall", params: { ms: 5000 } });
    const boom = new Error("step failed");
    const src = framesThrough(c as unknown, { push: () => { throw boom; }, end: () => [] })!;
    expect(f.sim.liveStreams.view().live_total).toBe(1);
    expect(await src.next().catch((e) => e)).toBe(boom);
    expect(await src.next()).toBeNull();
    // Core sees its stream end (the request aborted), long before the 5 s stall is over.
    await noLiveStreams();
    expect(f.sim.liveStreams.view().live_total).toBe(0);
  });

  test("a step is taken only before the frames are read, and never together with their stream", async () => {
    const c = await open({ scenario: "no-thinking" });
    void c.frames;
    expect(() => framesThrough(c as unknown, labels())).toThrow();
    await c.frames.cancel();
    const d = await open({ scenario: "no-thinking" });
    const src = framesThrough(d as unknown, labels())!;
    expect(() => d.frames).toThrow();
    await src.cancel();
    expect(await src.next()).toBeNull();
  });
});
