// svcml-and-prompts.md §1.5: a parameter that never closes before its invoke ends is ignored (unless its CDATA
// value had ended); an invoke left with no parameter kept and a non-blank body is rejected — it yields nothing,
// not a call with `{}` (issue 17 item 5). Whole text and one character at a time must agree.
import { describe, expect, test } from "bun:test";
import { SvcmlDetector, type DetectorEvent } from "../../../src/pipeline/svcml/detector";

function detect(text: string, step: number): DetectorEvent[] {
  const d = new SvcmlDetector({ newId: () => "call_1" });
  const out: DetectorEvent[] = [];
  for (let i = 0; i < text.length; i += step) out.push(...d.push(text.slice(i, i + step)));
  out.push(...d.flush());
  return out;
}

const calls = (evs: DetectorEvent[]) => evs.filter((e) => e.type !== "text");
const text = (evs: DetectorEvent[]) => evs.map((e) => (e.type === "text" ? e.text : "")).join("");
const W = (body: string) => `<|svcml|tool_calls><|svcml|invoke name="read_file">${body}</|svcml|tool_calls>`;

describe("an invoke whose parameter never closes", () => {
  for (const step of [10_000, 1]) {
    test(`the only parameter unclosed (a stray close tag, then the invoke's end): nothing (step ${step})`, () => {
      const evs = detect(W('<|svcml|parameter name="path">README.md</function></|svcml|invoke>'), step);
      expect(calls(evs)).toEqual([]);
      expect(text(evs)).toBe("");
    });

    test(`the only parameter unclosed when the wrapper closes: nothing (step ${step})`, () => {
      expect(calls(detect(W('<|svcml|parameter name="path">README.md'), step))).toEqual([]);
    });

    test(`an empty unclosed parameter is still a non-blank body: nothing (step ${step})`, () => {
      expect(calls(detect(W('<|svcml|parameter name="path"></|svcml|invoke>'), step))).toEqual([]);
    });

    test(`an unclosed parameter after a kept one: the call keeps the closed one (step ${step})`, () => {
      const evs = calls(detect(W('<|svcml|parameter name="path">a.md</|svcml|parameter><|svcml|parameter name="limit">3</|svcml|invoke>'), step));
      expect(evs[0]).toMatchObject({ type: "call_start", name: "read_file" });
      const args = evs.filter((e) => e.type === "call_args").map((e) => (e as { fragment: string }).fragment).join("");
      expect(JSON.parse(args)).toEqual({ path: "a.md" });
    });

    test(`an unclosed parameter whose CDATA value ended is kept (step ${step})`, () => {
      const evs = calls(detect(W('<|svcml|parameter name="path"><![CDATA[README.md]]></|svcml|invoke>'), step));
      const args = evs.filter((e) => e.type === "call_args").map((e) => (e as { fragment: string }).fragment).join("");
      expect(JSON.parse(args)).toEqual({ path: "README.md" });
    });

    test(`an invoke with an empty body is still a call with {} (step ${step})`, () => {
      const evs = calls(detect(W("</|svcml|invoke>"), step));
      expect(evs.map((e) => e.type)).toEqual(["call_start", "call_args", "call_end"]);
      expect((evs[1] as { fragment: string }).fragment).toBe("{}");
    });
  }
});
