// The request log's timeline (issue 31): phases add up and keep their first start, the core view times session
// and PoW and counts completions without touching the shared client, and the facts stage marks the first token
// on the first piece of the answer only.
import { describe, expect, test } from "bun:test";
import { RequestState } from "../../src/metering/request-state";
import { Timeline, markRound, timedCore } from "../../src/metering/timeline";
import { turnFactsStage } from "../../src/metering/turn-facts-tap";
import type { CoreClient } from "../../src/core/client";
import type { TurnEvent } from "../../src/pipeline/types";

describe("Timeline", () => {
  test("a repeated phase adds its time and keeps its first start; the JSON holds only what happened", () => {
    const tl = new Timeline(0);
    tl.add("queue", 5, 7);
    tl.add("queue", 20, 23);
    expect(tl.phase("queue")).toEqual({ start_ms: 5, ms: 5 });
    expect(tl.toJSON(40)).toEqual({ queue: { start_ms: 5, ms: 5 }, total_ms: 40 });
  });

  test("the core view times session and PoW, counts completions, and leaves the shared client as it was", async () => {
    const calls: string[] = [];
    const core = {
      createSession: async () => (calls.push("session"), "s1"),
      solvePow: async () => (calls.push("pow"), { header: "h" }),
      completion: async () => (calls.push("completion"), {}),
    } as unknown as CoreClient;
    const tl = new Timeline(performance.now());
    const view = timedCore(core, tl);
    // A second view of the same client shares its methods and keeps its own timeline.
    const other = new Timeline(performance.now());
    await timedCore(core, other).completion({} as never);
    expect(other.attempts.core_attempts).toBe(1);
    calls.length = 0;
    expect(await view.createSession("t")).toBe("s1");
    await view.solvePow("t", "/x");
    await view.completion({} as never);
    await view.completion({} as never);
    expect(calls).toEqual(["session", "pow", "completion", "completion"]);
    expect(tl.phase("session")?.ms).toBeGreaterThanOrEqual(0);
    expect(tl.phase("pow")?.ms).toBeGreaterThanOrEqual(0);
    expect(tl.attempts.core_attempts).toBe(2);
    expect(Object.keys(core)).toEqual(["createSession", "solvePow", "completion"]);
    expect(timedCore(core, undefined)).toBe(core);
    // A failing call is timed too, and still fails.
    const failing = timedCore({ createSession: async () => Promise.reject(new Error("down")) } as unknown as CoreClient, tl);
    await expect(failing.createSession("t")).rejects.toThrow("down");
  });

  test("rounds: a completion head marks core's first byte, continue rounds are counted", () => {
    const tl = new Timeline(performance.now());
    const info = { round: 0, path: "/c", requestBody: "", status: 200, startedAt: 0 };
    expect(tl.coreFirstByte).toBeUndefined();
    markRound(tl, { ...info, label: "completion" });
    markRound(tl, { ...info, label: "continue", round: 1 });
    expect(tl.coreFirstByte).toBeGreaterThanOrEqual(0);
    expect(tl.attempts.continue_rounds).toBe(1);
  });

  test("the facts stage marks the first token on the first answer piece, and sums reasoning tokens", () => {
    const state = new RequestState("r", "http://x/", "/", "", "chat");
    state.timeline = new Timeline(state.start);
    const stage = turnFactsStage(state);
    const out: TurnEvent[] = [];
    const c = { enqueue: (e: TurnEvent) => out.push(e) } as never;
    stage.transform!({ type: "keepalive" }, c);
    expect(state.timeline.firstToken).toBeUndefined();
    stage.transform!({ type: "thinking", text: "hm" }, c);
    const first = state.timeline.firstToken;
    expect(first).toBeGreaterThanOrEqual(0);
    stage.transform!({ type: "text", text: "later" }, c);
    expect(state.timeline.firstToken).toBe(first!);
    stage.transform!({ type: "finish", outcome: "stop", usage: { promptTokens: 3, completionTokens: 5, reasoningTokens: 2, totalTokens: 8 } }, c);
    expect(state.reasoningTokens).toBe(2);
    expect(state.timeline.lastByte).toBeGreaterThanOrEqual(first!);
    expect(out.length).toBe(4);
  });
});
