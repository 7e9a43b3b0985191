import { describe, expect, test } from "bun:test";
import { applyCurrentInputFile, CONTEXT_NOTE, CONTEXT_NOTE_NO_TAIL, contextFileText, splitLiveTail } from "../../src/prompt/context-file";
import { MARKER_ASSISTANT as A, MARKER_EOS as EOS, MARKER_TOOL as T, MARKER_USER as U } from "../../src/prompt/markers";
import { serializeTurns } from "../../src/prompt/serialize";
import type { Turn } from "../../src/pipeline/types";

const conversation: Turn[] = [
  { role: "system", text: "You are terse." },
  { role: "user", text: "List files" },
  { role: "assistant", text: "", reasoning: "old plan", toolCalls: [{ name: "ls", arguments: { dir: "." }, id: "c1" }] },
  { role: "tool", text: "a.ts b.ts", toolResultOf: { name: "ls", callId: "c1" } },
  { role: "assistant", text: "Two files." },
  { role: "user", text: "Read a.ts" },
];

const on = (min: number) => ({ enabled: true, min_chars: min });

describe("live tail (§3.11)", () => {
  test("a trailing user turn is the tail", () => {
    const { head, tail } = splitLiveTail(conversation);
    expect(tail).toEqual([{ role: "user", text: "Read a.ts" }]);
    expect(head.length).toBe(5);
  });

  test("trailing tool results bring the assistant turn that called them", () => {
    const turns = conversation.slice(0, 4);
    const { head, tail } = splitLiveTail(turns);
    expect(tail.map((t) => t.role)).toEqual(["assistant", "tool"]);
    expect(head.map((t) => t.role)).toEqual(["system", "user"]);
  });

  test("a final assistant turn (prefill) leaves no tail", () => {
    expect(splitLiveTail(conversation.slice(0, 5)).tail).toEqual([]);
  });

  test("the leading system turns never join the tail", () => {
    const { head, tail } = splitLiveTail([{ role: "system", text: "s" }, { role: "user", text: "q" }]);
    expect(head.map((t) => t.role)).toEqual(["system"]);
    expect(tail.map((t) => t.role)).toEqual(["user"]);
  });

  test("a mid-conversation system turn after the last assistant turn stays live in its place (issue 16)", () => {
    const after = splitLiveTail([...conversation, { role: "system", text: "mode: plan" }]);
    expect(after.tail).toEqual([{ role: "user", text: "Read a.ts" }, { role: "system", text: "mode: plan" }]);
    const before = splitLiveTail([...conversation.slice(0, 5), { role: "system", text: "mode: plan" }, conversation[5]!]);
    expect(before.tail.map((t) => t.role)).toEqual(["system", "user"]);
    expect(before.head).toEqual(conversation.slice(0, 5));
  });
});

describe("current_input_file trigger and file format (§3.11)", () => {
  test("below min_chars or disabled: the inline prompt, no file", () => {
    const inline = serializeTurns(conversation, "");
    expect(applyCurrentInputFile(conversation, "", on(inline.length + 1))).toEqual({ prompt: inline });
    expect(applyCurrentInputFile(conversation, "", { enabled: false, min_chars: 0 })).toEqual({ prompt: inline });
  });

  test("at min_chars: earlier turns go to the file, the latest request stays live after the note", () => {
    const inline = serializeTurns(conversation, "TOOLS");
    const r = applyCurrentInputFile(conversation, "TOOLS", on(inline.length));
    expect(r.contextFile?.name).toBe("conversation-context.txt");
    expect(r.prompt).toBe(serializeTurns([{ role: "user", text: `${CONTEXT_NOTE}\n\nRead a.ts` }], "TOOLS"));
    expect(r.prompt).toContain("TOOLS");
    expect(r.prompt).not.toContain("You are terse.");
    expect(r.contextFile!.text).toContain("=== 1. SYSTEM ===\nYou are terse.\n\n");
  });

  test("a system message after the latest request stays live, after it, instead of pushing it into the file (issue 16)", () => {
    const turns: Turn[] = [...conversation, { role: "system", text: "Mode: plan." }];
    const inline = serializeTurns(turns, "TOOLS");
    const r = applyCurrentInputFile(turns, "TOOLS", on(inline.length));
    expect(r.prompt).toBe(serializeTurns([{ role: "user", text: `${CONTEXT_NOTE}\n\nRead a.ts` }, { role: "system", text: "Mode: plan." }], "TOOLS"));
    expect(r.prompt).toEndWith(`${U}${CONTEXT_NOTE}\n\nRead a.ts<｜System｜>Mode: plan.<｜end▁of▁instructions｜>${A}`);
    expect(r.contextFile!.text).not.toContain("Mode: plan.");
  });

  test("file text: title, summary, blank line, numbered entries, tool meta line, reasoning rule", () => {
    const text = contextFileText(conversation.slice(0, 5), 1);
    const lines = text.split("\n");
    expect(lines[0]).toBe("Conversation context");
    expect(lines[2]).toBe("");
    expect(text).toContain("=== 2. USER ===\nList files\n\n");
    expect(text).toContain('=== 3. ASSISTANT ===\n[reasoning_content]\nold plan\n[/reasoning_content]\n\n<|svcml|tool_calls>\n  <|svcml|invoke name="ls">');
    expect(text).toContain("=== 4. TOOL ===\n[name=ls tool_call_id=c1]\na.ts b.ts\n\n");
    expect(text.endsWith("=== 5. ASSISTANT ===\nTwo files.\n\n")).toBe(true);
    // Reasoning of an assistant turn before the last user turn is dropped, as in the live prompt.
    expect(contextFileText(conversation.slice(0, 5), 3)).not.toContain("old plan");
  });

  test("tool results in the tail keep their calling assistant turn live", () => {
    const turns = conversation.slice(0, 4);
    const r = applyCurrentInputFile(turns, "", on(serializeTurns(turns, "").length));
    expect(r.prompt).toContain(`${U}${CONTEXT_NOTE}${A}[reasoning_content]\nold plan`);
    expect(r.prompt).toContain(`${EOS}${T}a.ts b.ts`);
    expect(r.contextFile!.text).not.toContain("=== 3.");
  });

  test("a tail that alone reaches min_chars goes to the file too, with the continue note", () => {
    const big: Turn[] = [
      { role: "user", text: "first" },
      { role: "assistant", text: "ok" },
      { role: "user", text: "x".repeat(500) },
    ];
    const r = applyCurrentInputFile(big, "", on(400));
    expect(r.prompt).toBe(serializeTurns([{ role: "user", text: CONTEXT_NOTE_NO_TAIL }], ""));
    expect(r.contextFile!.text).toContain("=== 3. USER ===\n" + "x".repeat(500));
  });

  test("min_chars 0 moves every non-empty conversation into the file", () => {
    const r = applyCurrentInputFile([{ role: "user", text: "hi" }], "", on(0));
    expect(r.contextFile!.text).toContain("=== 1. USER ===\nhi");
    expect(r.prompt).toContain(CONTEXT_NOTE_NO_TAIL);
    expect(applyCurrentInputFile([], "", on(0)).contextFile).toBeUndefined();
  });

  test("force (core refused the inline prompt) splits even below the threshold", () => {
    const r = applyCurrentInputFile(conversation, "", on(1_000_000), true);
    expect(r.contextFile).toBeDefined();
    expect(r.prompt).toContain("Read a.ts");
  });

  test("no file when nothing precedes the tail and the length came from the tool block", () => {
    const r = applyCurrentInputFile([{ role: "user", text: "hi" }], "T".repeat(1000), on(500));
    expect(r.contextFile).toBeUndefined();
  });
});
