// The line-level end-of-round tracker (core-upstream §7.9, continue.json decision_rule / decision_vectors).
import { describe, expect, test } from "bun:test";
import { loadVectors } from "../helpers/vectors";
import { onePerUnit } from "../helpers/chunking";
import { RoundTracker } from "../../src/core/round-tracker";
import { SseDecoder } from "../../src/core/sse";

const enc = new TextEncoder();

function track(lines: string[], split = false): RoundTracker {
  const t = new RoundTracker();
  const d = new SseDecoder();
  const bytes = enc.encode(lines.join("\n\n") + "\n\n");
  for (const chunk of split ? onePerUnit(bytes) : [bytes]) for (const f of d.push(chunk)) t.observe(f);
  for (const f of d.end()) t.observe(f);
  return t;
}

describe("continue.json decision_vectors", () => {
  for (const v of loadVectors("continue.json").decision_vectors as any[]) {
    test(v.id, () => {
      for (const split of [false, true]) {
        const t = track(v.round_lines, split);
        expect(t.shouldContinue(v.rounds_so_far ?? 0)).toBe(v.expect.continue);
        expect(t.outcome(v.rounds_so_far ?? 0).outcome === "continue").toBe(v.expect.continue);
        if (v.expect.message_id !== undefined) expect(t.outcome().responseMessageId).toBe(v.expect.message_id);
      }
    });
  }
});

describe("round tracker rules", () => {
  const incomplete = ['event: ready\ndata: {"request_message_id":1,"response_message_id":2}', 'data: {"p":"response/status","v":"INCOMPLETE"}'];

  test("the cap: no continue once rounds_so_far reaches max_continue_rounds (default 8)", () => {
    const t = track(incomplete);
    expect(t.outcome(7).outcome).toBe("continue");
    expect(t.outcome(8)).toEqual({ outcome: "truncated", responseMessageId: 2 });
    expect(t.outcome(2, 2).outcome).toBe("truncated");
  });

  test("no known session → truncated", () => {
    expect(track(incomplete).outcome(0, 8, false).outcome).toBe("truncated");
  });

  test("plain WIP at EOF is truncated; FINISHED finished; quasi FINISHED then CONTENT_FILTER is content_filter", () => {
    expect(track(['data: {"response_message_id":3,"v":{"response":{"status":"WIP"}}}']).outcome().outcome).toBe("truncated");
    expect(track(['data: {"p":"response/status","o":"SET","v":"FINISHED"}']).outcome().outcome).toBe("finished");
    const filtered = track([
      'data: {"p":"response","o":"BATCH","v":[{"p":"accumulated_token_usage","v":1269},{"p":"quasi_status","v":"FINISHED"}]}',
      'data: {"v":[{"p":"ban_regenerate","v":true},{"p":"status","v":"CONTENT_FILTER"},{"p":"quasi_status","v":"CONTENT_FILTER"}]}',
    ]);
    expect(filtered.outcome().outcome).toBe("content_filter");
    expect(track(['data: {"code":"content_filter"}']).outcome().outcome).toBe("content_filter");
  });

  test("between rounds the status resets and the id is kept; slashes around a path are trimmed", () => {
    const t = track([...incomplete, 'data: {"p":"/response/auto_continue/","v":true}']);
    expect(t.lastStatus).toBe("AUTO_CONTINUE");
    t.nextRound();
    expect(t.outcome()).toEqual({ outcome: "truncated", responseMessageId: 2 });
    t.observe({ event: "message", data: '{"p":"response/quasi_status","v":"INCOMPLETE"}' });
    expect(t.outcome(1).outcome).toBe("continue");
  });

  test("comments, non-JSON data and [DONE] change nothing", () => {
    const t = track([...incomplete, ": ", "data: [DONE]", "data: not json"]);
    expect(t.outcome().outcome).toBe("continue");
  });
});
