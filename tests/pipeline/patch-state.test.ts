// The patch reducer's state (core-upstream §7.4) and the per-round outcome (§7.9) on patch-reducer.json:
// final state subsets, and one outcome per round from both the state and the line-level tracker.
import { describe, expect, test } from "bun:test";
import { loadVectors } from "../helpers/vectors";
import { PatchState } from "../../src/pipeline/patch-state";
import { RoundTracker } from "../../src/core/round-tracker";
import { outcomeOfState } from "../helpers/round-outcome";

const vectors = loadVectors("patch-reducer.json").vectors as any[];

/** The fields a vector's expected_final_state lists, read the same way from the state. */
function projectFragment(f: any, want: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(want)) {
    if (k === "results_urls") out[k] = (f.results ?? []).map((r: any) => r.url);
    else if (k === "result_url") out[k] = f.result?.url;
    else out[k] = f[k];
  }
  return out;
}

describe("patch reducer state (patch-reducer.json)", () => {
  for (const v of vectors) {
    test(`${v.id}: final state and per-round outcomes`, () => {
      const rounds: unknown[][] = v.rounds ?? [v.messages];
      const state = new PatchState();
      const tracker = new RoundTracker();
      const outcomes: string[] = [];
      const trackerOutcomes: string[] = [];
      for (const [i, msgs] of rounds.entries()) {
        state.resetSticky();
        if (i > 0) tracker.nextRound();
        tracker.observe({ event: "ready", data: '{"request_message_id":1,"response_message_id":2}' });
        for (const m of msgs) {
          state.apply(m as Record<string, unknown>);
          tracker.observe({ event: "message", data: JSON.stringify(m) });
        }
        outcomes.push(outcomeOfState(state.response));
        trackerOutcomes.push(tracker.outcome(i).outcome);
      }
      expect(outcomes).toEqual(v.expected_outcomes);
      expect(trackerOutcomes).toEqual(v.expected_outcomes);

      const r = state.response as any;
      const { fragments: wantFragments, ...wantFields } = v.expected_final_state;
      for (const [k, want] of Object.entries(wantFields)) expect([k, r[k]]).toEqual([k, want]);
      expect(r.fragments.length).toBe(wantFragments.length);
      for (const [i, want] of (wantFragments as any[]).entries()) expect(projectFragment(r.fragments[i], want)).toEqual(want);
    });
  }
});

describe("patch semantics beyond the vectors", () => {
  const snap = { v: { response: { status: "WIP", fragments: [{ id: 1, type: "THINK", content: "a" }, { id: 2, type: "RESPONSE", content: "b" }] } } };
  const fresh = () => {
    const s = new PatchState();
    s.apply(structuredClone(snap));
    return s;
  };

  test("negative indices count from the end at application time; out of range is a no-op", () => {
    const s = fresh();
    s.apply({ p: "response/fragments/-2/content", o: "APPEND", v: "1" });
    s.apply({ p: "response/fragments", o: "APPEND", v: [{ id: 3, type: "TIP", content: "" }] });
    s.apply({ p: "response/fragments/-2/content", o: "APPEND", v: "2" });
    s.apply({ p: "response/fragments/-16/content", o: "APPEND", v: "never" });
    s.apply({ p: "response/fragments/5/content", v: "never" });
    const f = (s.response as any).fragments;
    expect(f.map((x: any) => x.content)).toEqual(["a1", "b2", ""]);
  });

  test("a missing op with none set means SET; a pathless payload with no path is ignored", () => {
    const s = fresh();
    s.apply({ v: "ignored: no path yet in this round" });
    s.apply({ p: "response/status", v: "INCOMPLETE" });
    s.apply({ v: "FINISHED" });
    expect((s.response as any).status).toBe("FINISHED");
    expect((s.response as any).fragments[1].content).toBe("b");
  });

  test("sticky path and op reset at a round boundary", () => {
    const s = fresh();
    s.apply({ p: "response/fragments/-1/content", o: "APPEND", v: "c" });
    s.resetSticky();
    s.apply({ v: "dropped" });
    expect((s.response as any).fragments[1].content).toBe("bc");
  });

  test("APPEND: array gets elements or one element; missing / null target stores; other combinations replace", () => {
    const s = fresh();
    s.apply({ p: "response/list", o: "APPEND", v: [1] });
    s.apply({ p: "response/list", o: "APPEND", v: [2, 3] });
    s.apply({ p: "response/list", o: "APPEND", v: 4 });
    s.apply({ p: "response/n", o: "APPEND", v: 5 });
    s.apply({ p: "response/n", o: "APPEND", v: 6 });
    s.apply({ p: "response/nul", o: "SET", v: null });
    s.apply({ p: "response/nul", o: "APPEND", v: "x" });
    const r = s.response as any;
    expect([r.list, r.n, r.nul]).toEqual([[1, 2, 3, 4], 6, "x"]);
  });

  test("unknown paths create intermediate objects; an integer segment on an object is a key", () => {
    const s = fresh();
    s.apply({ p: "response/meta/7/deep", v: true });
    expect((s.response as any).meta).toEqual({ 7: { deep: true } });
  });

  test("BATCH: relative sub-paths, first sub-op SET, later ones inherit; a pathless batch continues the batch path", () => {
    const s = fresh();
    s.apply({ p: "response/fragments/-1", o: "BATCH", v: [{ p: "content", o: "APPEND", v: "[reference:0]" }, { p: "references", o: "SET", v: [{ id: 9 }] }] });
    s.apply({ v: [{ p: "content", o: "APPEND", v: "[reference:1]" }, { p: "references", v: [{ id: 8 }] }] });
    s.apply({ p: "response", o: "BATCH", v: [{ p: "accumulated_token_usage", v: 5 }, { p: "quasi_status", v: "FINISHED" }] });
    const r = s.response as any;
    expect(r.fragments[1].content).toBe("b[reference:0][reference:1]");
    expect(r.fragments[1].references).toEqual([{ id: 9 }, { id: 8 }]);
    expect([r.accumulated_token_usage, r.quasi_status]).toEqual([5, "FINISHED"]);
  });

  test("a snapshot replaces the whole state", () => {
    const s = fresh();
    s.apply({ v: { response: { status: "WIP", fragments: [] } } });
    expect(s.response).toEqual({ status: "WIP", fragments: [] });
  });
  test("lastAppend names the string the last payload appended, and where; anything else clears it", () => {
    const s = fresh();
    s.apply({ p: "response/fragments/-1/content", o: "APPEND", v: "x" });
    const frag = (s.response as any).fragments[1];
    expect(s.lastAppend).toEqual({ container: frag, key: "content", piece: "x" });
    expect(s.lastAppend!.container).toBe(frag);
    s.apply({ v: "y" }); // sticky path and op
    expect(s.lastAppend?.piece).toBe("y");
    s.apply({ p: "response/status", o: "SET", v: "FINISHED" });
    expect(s.lastAppend).toBeNull();
    s.apply({ p: "response/list", o: "SET", v: ["a"] });
    s.apply({ p: "response/list/0", o: "APPEND", v: "b" });
    expect(s.lastAppend).toBeNull(); // an array element is not tracked
    s.apply({ p: "response/list", o: "APPEND", v: "c" });
    expect((s.response as any).list).toEqual(["ab", "c"]);
    expect(s.lastAppend).toBeNull(); // a string pushed onto an array is no string growing (pushAll joins only those)
    s.apply({ p: "response/fragments/-1", o: "BATCH", v: [{ p: "content", o: "APPEND", v: "1" }, { p: "status", o: "SET", v: "X" }] });
    expect(s.lastAppend).toBeNull(); // the batch's last step was no append
    s.apply({ v: { response: { fragments: [] } } });
    expect(s.lastAppend).toBeNull();
  });
});
