// The runner settles the attempt's lease when the answer's last event (finish or error) passes, not when a reader
// happens to ask once more: a reader that stops at the last event without cancelling (as a non-stream collector
// may) must not hold the account slot for good. Driven with a scripted attempt, no core.
import { describe, expect, test } from "bun:test";
import { runTurn } from "../../src/turn/runner";
import type { RunDeps, StartedAttempt } from "../../src/turn/types";
import type { TurnEvent, TurnRequest } from "../../src/pipeline/types";
import type { Caller } from "../../src/accounts/caller";
import { batchStream } from "./helpers";

const usage = { promptTokens: 1, completionTokens: 1, reasoningTokens: 0, totalTokens: 2 };

function scripted(batches: TurnEvent[][], cancelled: unknown[] = []): StartedAttempt {
  return { sessionId: "s1", account: "a", promptTokens: 1, events: batchStream(batches, cancelled) };
}

function deps(attempt: StartedAttempt, released: string[]): RunDeps {
  return {
    attempt: async () => attempt,
    acquire: async () => ({ account: "a", release: () => released.push("released") }),
    token: async () => "token",
    invalidateToken: () => {},
    afterTurn: () => released.push("after"),
    fileModeAvailable: false,
    accountCount: () => 1,
    hasCandidate: () => true,
    log: { warn: () => {} },
  };
}

const caller = { mode: "managed", token: "", fingerprint: "t", ownerHash: "", source: "test" } as unknown as Caller;
const turn = {} as TurnRequest;

describe("the runner's lease and the last event", () => {
  const endings: [string, TurnEvent][] = [
    ["a finish", { type: "finish", outcome: "stop", usage } as TurnEvent],
    ["an error", { type: "error", status: 503, code: "upstream_unavailable", message: "Core failed." }],
  ];
  for (const [name, last] of endings) {
    test(`${name}: the lease is released once the event is read, with no further read`, async () => {
      const released: string[] = [];
      const running = await runTurn(deps(scripted([[{ type: "text", text: "hi" }], [last]]), released), turn, caller, new AbortController().signal);
      const reader = running.events.getReader();
      expect((await reader.read()).value).toEqual([{ type: "text", text: "hi" }]);
      expect(released).toEqual([]);
      expect((await reader.read()).value).toEqual([last]);
      // No read after the last event, no cancel: the slot is free already.
      expect(released).toEqual(["released", "after"]);
      expect((await reader.read()).done).toBe(true);
      expect(released).toEqual(["released", "after"]);
    });
  }
});

describe("the runner's stream (what the SSE body and the non-stream collector read)", () => {
  const finish = { type: "finish", outcome: "stop", usage } as TurnEvent;

  test("gives the turn's batches, never an empty one, and settles the lease as the last event passes", async () => {
    const released: string[] = [];
    const cancelled: unknown[] = [];
    const attempt = scripted([[{ type: "text", text: "a" }], [], [{ type: "text", text: "b" }, finish]], cancelled);
    const running = await runTurn(deps(attempt, released), turn, caller, new AbortController().signal);
    const reader = running.events.getReader();
    expect((await reader.read()).value).toEqual([{ type: "text", text: "a" }]);
    expect((await reader.read()).value).toEqual([{ type: "text", text: "b" }, finish]);
    expect(released).toEqual(["released", "after"]);
    expect((await reader.read()).done).toBe(true);
    // Over: a cancel now (a client leaving after the last event) stops nothing and settles nothing twice.
    await reader.cancel("late");
    expect(released).toEqual(["released", "after"]);
    expect(cancelled).toEqual([]);
  });

  test("cancelling it while the answer runs ends the attempt and releases the lease, once", async () => {
    const released: string[] = [];
    const cancelled: unknown[] = [];
    const attempt = scripted([[{ type: "text", text: "a" }], [{ type: "text", text: "b" }]], cancelled);
    const running = await runTurn(deps(attempt, released), turn, caller, new AbortController().signal);
    const reader = running.events.getReader();
    expect((await reader.read()).value).toEqual([{ type: "text", text: "a" }]);
    await reader.cancel("client left");
    expect(cancelled).toEqual(["client left"]);
    expect(released).toEqual(["released", "after"]);
    // A cancelled stream reads as ended; the turn is not started again.
    expect((await reader.read()).done).toBe(true);
    expect(released).toEqual(["released", "after"]);
  });

  test("cancelling a stream piped from it (the client left the SSE body) reaches the attempt and releases the lease", async () => {
    const released: string[] = [];
    const cancelled: unknown[] = [];
    const attempt = scripted([[{ type: "text", text: "a" }], [{ type: "text", text: "b" }]], cancelled);
    const running = await runTurn(deps(attempt, released), turn, caller, new AbortController().signal);
    const piped = running.events.pipeThrough(new TransformStream<TurnEvent[], TurnEvent[]>()).pipeThrough(new TransformStream<TurnEvent[], TurnEvent[]>());
    const reader = piped.getReader();
    expect((await reader.read()).value).toEqual([{ type: "text", text: "a" }]);
    await reader.cancel("client left");
    for (let i = 0; i < 50 && released.length < 2; i++) await Bun.sleep(1);
    expect(cancelled).toEqual(["client left"]);
    expect(released).toEqual(["released", "after"]);
  });
});
