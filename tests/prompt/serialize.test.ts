import { describe, expect, test } from "bun:test";
import { assistantTurnText, imagesToLinks, OUTPUT_GUARD, serializeTurns } from "../../src/prompt/serialize";
import {
  MARKER_ASSISTANT as A,
  MARKER_BOS as BOS,
  MARKER_END_INSTRUCTIONS as EI,
  MARKER_END_TOOL_RESULTS as ET,
  MARKER_EOS as EOS,
  MARKER_SYSTEM as S,
  MARKER_TOOL as T,
  MARKER_USER as U,
} from "../../src/prompt/markers";
import type { Turn } from "../../src/pipeline/types";

const G = OUTPUT_GUARD;

describe("role-marker serialisation (§3.2)", () => {
  test("markers are the fullwidth spellings of §0", () => {
    expect(BOS).toBe("<\uff5cbegin\u2581of\u2581sentence\uff5c>");
    expect(EI).toBe("<\uff5cend\u2581of\u2581instructions\uff5c>");
  });

  test("a plain question: guard-only system block, user turn, open assistant marker", () => {
    expect(serializeTurns([{ role: "user", text: "Hi" }], "")).toBe(`${BOS}${S}${G}${EI}${U}Hi${A}`);
  });

  test("leading system texts and the tool block join the guard in the first block", () => {
    const turns: Turn[] = [
      { role: "system", text: "Be brief." },
      { role: "system", text: "  Use metric.  " },
      { role: "user", text: "Q" },
    ];
    expect(serializeTurns(turns, "TOOLS")).toBe(`${BOS}${S}${G}\n\nBe brief.\n\n  Use metric.  \n\nTOOLS${EI}${U}Q${A}`);
  });

  test("a later system turn stays in place as its own block (trimmed); a blank one is skipped", () => {
    const turns: Turn[] = [
      { role: "user", text: "Q1" },
      { role: "assistant", text: "A1" },
      { role: "system", text: " note " },
      { role: "user", text: "Q2" },
    ];
    expect(serializeTurns(turns, "")).toBe(`${BOS}${S}${G}${EI}${U}Q1${A}A1${EOS}${S}note${EI}${U}Q2${A}`);
  });

  test("adjacent same-role turns merge with a blank line", () => {
    const turns: Turn[] = [
      { role: "user", text: "one" },
      { role: "user", text: "two" },
      { role: "assistant", text: "x" },
      { role: "assistant", text: "y" },
      { role: "user", text: "three" },
    ];
    expect(serializeTurns(turns, "")).toBe(`${BOS}${S}${G}${EI}${U}one\n\ntwo${A}x\n\ny${EOS}${U}three${A}`);
  });

  test("tool results: consecutive results merge into one block, blank result is null, no names or ids", () => {
    const turns: Turn[] = [
      { role: "user", text: "Q" },
      { role: "assistant", text: "", toolCalls: [{ name: "a", arguments: {} }, { name: "b", arguments: {} }] },
      { role: "tool", text: "r1", toolResultOf: { name: "a", callId: "call_1" } },
      { role: "tool", text: "  ", toolResultOf: { name: "b", callId: "call_2" } },
    ];
    const out = serializeTurns(turns, "");
    expect(out.endsWith(`${EOS}${T}r1\n\nnull${ET}${A}`)).toBe(true);
    expect(out).not.toContain("call_1");
  });

  test("prefill: a final assistant turn has no end marker and nothing follows", () => {
    const turns: Turn[] = [
      { role: "user", text: "Write JSON" },
      { role: "assistant", text: "{" },
    ];
    expect(serializeTurns(turns, "")).toBe(`${BOS}${S}${G}${EI}${U}Write JSON${A}{`);
  });

  test("empty turns are skipped, but a final empty user turn stays", () => {
    const turns: Turn[] = [
      { role: "user", text: "" },
      { role: "assistant", text: "" },
      { role: "user", text: "Q" },
      { role: "assistant", text: "A" },
      { role: "user", text: "" },
    ];
    expect(serializeTurns(turns, "")).toBe(`${BOS}${S}${G}${EI}${U}Q${A}A${EOS}${U}${A}`);
  });

  test("reasoning is written only for assistant turns after the last user turn", () => {
    const turns: Turn[] = [
      { role: "user", text: "Q1" },
      { role: "assistant", text: "old", reasoning: "OLD-THOUGHT" },
      { role: "user", text: "Q2" },
      { role: "assistant", text: "", reasoning: "plan", toolCalls: [{ name: "ls", arguments: {} }] },
      { role: "tool", text: "files" },
    ];
    const out = serializeTurns(turns, "");
    expect(out).not.toContain("OLD-THOUGHT");
    expect(out).toContain(`${A}[reasoning_content]\nplan\n[/reasoning_content]\n\n<|svcml|tool_calls>`);
  });

  test("assistant text: reasoning, trimmed text and calls joined by blank lines", () => {
    const t: Turn = { role: "assistant", text: "  Looking.  ", reasoning: "r", toolCalls: [{ name: "ls", arguments: {} }] };
    expect(assistantTurnText(t, true)).toBe(
      '[reasoning_content]\nr\n[/reasoning_content]\n\nLooking.\n\n<|svcml|tool_calls>\n  <|svcml|invoke name="ls"></|svcml|invoke>\n</|svcml|tool_calls>',
    );
    expect(assistantTurnText(t, false).startsWith("Looking.")).toBe(true);
  });

  test("markdown images become links in prose", () => {
    expect(imagesToLinks("see ![a cat](http://x/c.png) and ![](u)")).toBe("see [a cat](http://x/c.png) and [](u)");
    expect(serializeTurns([{ role: "user", text: "![pic](p.png)" }], "")).toContain(`${U}[pic](p.png)${A}`);
    expect(serializeTurns([{ role: "system", text: "![s](s.png)" }, { role: "user", text: "hi" }], "")).toContain("[s](s.png)");
    expect(serializeTurns([{ role: "system", text: "![s](s.png)" }, { role: "user", text: "hi" }], "")).not.toContain("![s]");
  });

  test("file contents keep their images: tool results and the calls written back are not rewritten (issue 29)", () => {
    const readme = "# Demo\n![badge](https://x/b.svg)\n";
    const p = serializeTurns(
      [
        { role: "user", text: "fix the readme" },
        { role: "assistant", text: "", toolCalls: [{ name: "Write", arguments: { file_path: "README.md", content: readme } }] },
        { role: "tool", text: readme, toolResultOf: { name: "Read", callId: "c1" } },
      ],
      "",
    );
    expect(p.split("![badge](https://x/b.svg)").length).toBe(3);
  });

  test("the guard is a constant about malformed fragments", () => {
    expect(G).toMatch(/garbled/);
    expect(G).toMatch(/well-formed/);
  });
});
