// The detector's public surface beyond the vectors: the stream wrapper, suppress mode (tool_choice none),
// default call ids, schema coercion by tool declarations, unfinished calls, whole-text parsing, the thinking
// fallback, and bounded hold-back.
import { describe, expect, test } from "bun:test";
import { SvcmlDetector, type DetectorEvent } from "../../../src/pipeline/svcml/detector";
import { svcmlDetectStream } from "../../helpers/text-stages";
import { schemaLookup } from "../../../src/pipeline/svcml/coerce";
import { parseWholeText, thinkingFallback } from "../../../src/pipeline/svcml/parse";
import { onePerUnit, randomSplits, runTransform } from "../../helpers/chunking";

const CALL = '<|svcml|tool_calls><|svcml|invoke name="read_file"><|svcml|parameter name="path"><![CDATA[a.md]]></|svcml|parameter></|svcml|invoke></|svcml|tool_calls>';

function textOf(events: DetectorEvent[]): string {
  return events.map((e) => (e.type === "text" ? e.text : "")).join("");
}

describe("SvcmlDetector API", () => {
  test("svcmlDetectStream yields the same events as push/flush", async () => {
    const chunks = randomSplits(`before ${CALL} after`, 3, 9);
    const ts = svcmlDetectStream({ newId: () => "call_x" });
    const streamed = await runTransform(ts, chunks);
    const d = new SvcmlDetector({ newId: () => "call_x" });
    const direct = [...chunks.flatMap((c) => d.push(c)), ...d.flush()];
    const norm = (es: DetectorEvent[]) => parseWholeTextLike(es);
    expect(norm(streamed)).toEqual(norm(direct));
    expect(textOf(streamed)).toBe("before  after");
    expect(ts.detector.hasUnfinished).toBe(false);
  });

  test("default ids are call_ + 24 lower-case hex, distinct per call", () => {
    const r = parseWholeText(`${CALL}${CALL}`);
    expect(r.calls).toHaveLength(2);
    for (const c of r.calls) expect(c.id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(r.calls[0]!.id).not.toBe(r.calls[1]!.id);
    expect(r.calls.map((c) => c.index)).toEqual([0, 1]);
  });

  test("suppress mode removes blocks and confirmed bare invokes but announces nothing", () => {
    const bare = '<invoke name="x"><parameter name="a">1</parameter></invoke>\n</tool_calls>';
    for (const chunks of [[`A${CALL}B${bare}C`], onePerUnit(`A${CALL}B${bare}C`)]) {
      const d = new SvcmlDetector({ suppress: true });
      const events = [...chunks.flatMap((c) => d.push(c)), ...d.flush()];
      expect(events.every((e) => e.type === "text")).toBe(true);
      expect(textOf(events)).toBe("ABC");
    }
  });

  test("the tools option coerces values where the schema says string", () => {
    const tools = schemaLookup([
      { type: "function", function: { name: "Set", parameters: { type: "object", properties: { v: { type: "string" }, n: { type: "integer" } } } } },
    ]);
    const text = '<tool_calls><invoke name="set"><parameter name="v">42</parameter><parameter name="n">7</parameter></invoke></tool_calls>';
    const r = parseWholeText(text, { tools });
    expect(JSON.parse(r.calls[0]!.arguments)).toEqual({ v: "42", n: 7 });
    // Any surface's declaration shape is understood.
    const messagesTools = schemaLookup([{ name: "set", input_schema: { properties: { v: { type: "string" } } } }]);
    expect(JSON.parse(parseWholeText(text, { tools: messagesTools }).calls[0]!.arguments)).toEqual({ v: "42", n: 7 });
  });

  test("an announced call cut off by the end of input is unfinished (finish reason length)", () => {
    const d = new SvcmlDetector();
    const events = [
      ...d.push('<tool_calls><invoke name="w"><parameter name="path">a</parameter><parameter name="content"><![CDATA[hel'),
      ...d.flush(),
    ];
    expect(d.hasUnfinished).toBe(true);
    expect(events.some((e) => e.type === "call_start")).toBe(true);
    expect(events.some((e) => e.type === "call_end")).toBe(false);
    expect(textOf(events)).toBe("");
  });

  test("thinkingFallback returns only finished calls", () => {
    expect(thinkingFallback(`I will call it: ${CALL}`).map((c) => c.name)).toEqual(["read_file"]);
    expect(thinkingFallback('<tool_calls><invoke name="a"><parameter name="x">1</parameter>')).toEqual([]);
    expect(thinkingFallback("   ")).toEqual([]);
  });

  test("prose is never held back; a partial tag at most until the chunk that settles it", () => {
    const d = new SvcmlDetector();
    expect(textOf(d.push("Hello, a < b and <b>bold</b> "))).toBe("Hello, a < b and <b>bold</b> ");
    expect(textOf(d.push("then <tool_ca"))).toBe("then ");
    expect(textOf(d.push("lls_extra> done"))).toBe("<tool_calls_extra> done");
    expect(textOf(d.flush())).toBe("");
  });

  test("a wrapper mentioned in prose is released as soon as the next token shows it is a mention", () => {
    const d = new SvcmlDetector();
    expect(textOf(d.push("This API uses a <tool_calls> "))).toBe("This API uses a ");
    expect(textOf(d.push("wrapper."))).toBe("<tool_calls> wrapper.");
  });

  test("a large CDATA value in small chunks comes out intact", () => {
    const value = "line <b>&amp;</b> ]] ]> ```\n".repeat(4000);
    const text = `<tool_calls><invoke name="write"><parameter name="content"><![CDATA[${value}]]></parameter></invoke></tool_calls>`;
    const d = new SvcmlDetector();
    const events = [...randomSplits(text, 9, 64).flatMap((c) => d.push(c)), ...d.flush()];
    const r = parseWholeTextLike(events);
    expect(JSON.parse(r[0]!.arguments)).toEqual({ content: value });
  });
});

/** Calls (name, arguments, finished) from raw events, ids ignored. */
function parseWholeTextLike(events: DetectorEvent[]) {
  const calls: { name: string; arguments: string; finished: boolean }[] = [];
  for (const e of events) {
    if (e.type === "call_start") calls[e.index] = { name: e.name, arguments: "", finished: false };
    else if (e.type === "call_args") calls[e.index]!.arguments += e.fragment;
    else if (e.type === "call_end") calls[e.index]!.finished = true;
  }
  return calls;
}
