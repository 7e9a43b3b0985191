// The finish step (issue 17: fused into the assembler's stage, tested on its own): what closes a turn once core's
// answer ended.
import { describe, expect, test } from "bun:test";
import { finishTurn, newReport } from "../../src/pipeline/turn-assembler";
import { TurnAccumulator } from "../../src/pipeline/turn-accumulator";
import type { CoreEvent, TurnEvent } from "../../src/pipeline/types";

type End = Extract<CoreEvent, { type: "end" }>;
const finished: End = { type: "end", outcome: "finished", visible: true };

function run(events: TurnEvent[], end: End = finished, extra: { thinking?: string; fallback?: (t: string) => { name: string; arguments: string }[] } = {}) {
  const acc = new TurnAccumulator();
  for (const e of events) acc.push(e);
  const report = { ...newReport(), thinking: extra.thinking ?? "", rawAnswer: acc.text };
  let n = 0;
  const out = finishTurn({ acc, end, report, upstreamTotal: undefined, promptTokens: 10, fallback: extra.fallback, newCallId: () => `call_${++n}` });
  return { out, report, acc };
}

describe("finishTurn", () => {
  test("an answer: finish stop with usage", () => {
    const { out, report } = run([{ type: "text", text: "Hello" }]);
    expect(out).toEqual([{ type: "finish", outcome: "stop", usage: expect.objectContaining({ promptTokens: 10 }) }]);
    expect(report.outcome).toBe("stop");
  });

  test("finished calls: tool_calls; a call still open: length", () => {
    const call: TurnEvent[] = [{ type: "call_start", index: 0, id: "c", name: "f" }, { type: "call_args", index: 0, fragment: "{}" }];
    expect(run([...call, { type: "call_end", index: 0 }]).out[0]).toMatchObject({ type: "finish", outcome: "tool_calls" });
    expect(run(call).out[0]).toMatchObject({ type: "finish", outcome: "length" });
  });

  test("nothing visible: the empty-output error (D9.6); filtered by core instead: a content-filter finish", () => {
    expect(run([{ type: "text", text: "  " }]).out).toEqual([{ type: "error", status: 503, code: "upstream_empty_output", message: "Core returned an empty answer." }]);
    expect(run([], { type: "end", outcome: "content_filter", visible: false }).out[0]).toMatchObject({ type: "finish", outcome: "content_filter" });
  });

  test("a core failure becomes its typed error event, whatever was shown", () => {
    const { out, report } = run([{ type: "text", text: "Hel" }], { type: "end", outcome: "error", code: "upstream_timeout", visible: true });
    expect(out).toEqual([{ type: "error", status: 503, code: "upstream_timeout", message: expect.any(String) }]);
    expect(report.errorCode).toBe("upstream_timeout");
  });

  test("blank answer with a call in the thinking: the fallback's calls, then tool_calls (1.12)", () => {
    const { out, acc } = run([], finished, { thinking: "…", fallback: () => [{ name: "read_file", arguments: '{"path":"a"}' }] });
    expect(out.map((e) => e.type)).toEqual(["call_start", "call_args", "call_end", "finish"]);
    expect(out.at(-1)).toMatchObject({ outcome: "tool_calls" });
    expect(acc.calls).toEqual([{ index: 0, id: "call_1", name: "read_file", arguments: '{"path":"a"}', finished: true }]);
  });
});
