import { describe, expect, test } from "bun:test";
import { messagesEffortHint, normalizeMessages } from "../../../src/surfaces/messages/normalize";
import { serializeTurns } from "../../../src/prompt/serialize";

describe("messages normaliser (§3.5)", () => {
  test("system as a string or text blocks joined by a blank line", () => {
    expect(normalizeMessages({ system: "s", messages: [{ role: "user", content: "q" }] }).turns[0]).toEqual({ role: "system", text: "s" });
    const r = normalizeMessages({ system: [{ type: "text", text: "a", cache_control: { type: "ephemeral" } }, { type: "text", text: "b" }], messages: [{ role: "user", content: "q" }] });
    expect(r.turns[0]).toEqual({ role: "system", text: "a\n\nb" });
  });

  test("tool results come before the rest of their message, is_error prefixes Error:; thinking blocks are ignored (D7.5)", () => {
    const r = normalizeMessages({
      messages: [
        { role: "user", content: "list and read" },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "plan", signature: "sig" },
            { type: "redacted_thinking", data: "xx" },
            { type: "text", text: "Sure." },
            { type: "tool_use", id: "toolu_1", name: "ls", input: { dir: "." } },
            { type: "tool_use", id: "toolu_2", name: "cat", input: { path: "a" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "text", text: "and then summarise" },
            { type: "tool_result", tool_use_id: "toolu_1", content: "a.ts" },
            { type: "tool_result", tool_use_id: "toolu_2", is_error: true, content: [{ type: "text", text: "no" }, { type: "text", text: "such file" }] },
          ],
        },
      ],
    });
    expect(r.turns).toEqual([
      { role: "user", text: "list and read" },
      {
        role: "assistant",
        text: "Sure.",
        toolCalls: [
          { name: "ls", arguments: { dir: "." }, id: "toolu_1" },
          { name: "cat", arguments: { path: "a" }, id: "toolu_2" },
        ],
      },
      { role: "tool", text: "a.ts", toolResultOf: { callId: "toolu_1", name: "ls" } },
      { role: "tool", text: "Error: no\n\nsuch file", toolResultOf: { callId: "toolu_2", name: "cat" } },
      { role: "user", text: "and then summarise" },
    ]);
  });

  test("a last user message holding only tool results adds no empty user turn", () => {
    const r = normalizeMessages({
      messages: [
        { role: "user", content: "q" },
        { role: "assistant", content: [{ type: "tool_use", id: "t", name: "ls", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "r" }] },
      ],
    });
    expect(r.turns.map((t) => t.role)).toEqual(["user", "assistant", "tool"]);
    expect(serializeTurns(r.turns, "").endsWith("r<｜end▁of▁toolresults｜><｜Assistant｜>")).toBe(true);
  });

  test("user blocks: text joined by blank lines, base64 image and document uploaded, text document adds text, URL image named", () => {
    const r = normalizeMessages({
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "one" },
            { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "AAEC" } },
            { type: "document", source: { type: "base64", media_type: "application/pdf", data: "AwQF" } },
            { type: "document", source: { type: "text", media_type: "text/plain", data: "doc text" } },
            { type: "image", source: { type: "url", url: "https://x/y.png" } },
            { type: "thinking", thinking: "user thinking is dropped" },
            { type: "tool_use", id: "x", name: "n", input: {} },
            { type: "text", text: "two" },
          ],
        },
      ],
    });
    expect(r.turns).toEqual([{ role: "user", text: "one\n\ndoc text\n\n[image: https://x/y.png]\n\ntwo" }]);
    expect(r.files.map((f) => f.mime)).toEqual(["image/jpeg", "application/pdf"]);
  });

  test("tools need input_schema; max_tokens defaults to 8192; stop_sequences pass as stop", () => {
    const r = normalizeMessages({
      messages: [{ role: "user", content: "q" }],
      tools: [{ name: "t", description: "d", input_schema: { type: "object" } }, { type: "web_search_20250305", name: "web_search" }],
      tool_choice: { type: "tool", name: "t", disable_parallel_tool_use: true },
      temperature: 1,
      stop_sequences: ["END"],
    });
    expect(r.tools).toEqual([{ name: "t", description: "d", parameters: { type: "object" } }]);
    expect(r.toolChoice).toEqual({ kind: "forced", name: "t" });
    expect(r.singleCall).toBe(true);
    expect(r.passThrough).toEqual({ max_tokens: 8192, temperature: 1, stop: ["END"] });
    expect(normalizeMessages({ messages: [{ role: "user", content: "q" }], max_tokens: 10 }).passThrough.max_tokens).toBe(10);
  });

  test("a system message anywhere in messages is a system turn in place, string or text blocks (issue 16)", () => {
    const r = normalizeMessages({
      system: "top",
      messages: [
        { role: "user", content: "q1" },
        { role: "system", content: [{ type: "text", text: "mid a", cache_control: { type: "ephemeral" } }, { type: "image", source: {} }, { type: "text", text: "mid b" }] },
        { role: "assistant", content: "a1" },
        { role: "system", content: "late" },
        { role: "user", content: "q2" },
      ],
    });
    expect(r.turns).toEqual([
      { role: "system", text: "top" },
      { role: "user", text: "q1" },
      { role: "system", text: "mid a\n\nmid b" },
      { role: "assistant", text: "a1" },
      { role: "system", text: "late" },
      { role: "user", text: "q2" },
    ]);
  });

  test("Claude Code's shape (system message at index 1, last): written as a system block after the question", () => {
    const r = normalizeMessages({ system: "You are Claude Code.", messages: [{ role: "user", content: "hi" }, { role: "system", content: "Mode: plan." }] });
    const prompt = serializeTurns(r.turns, "");
    expect(prompt).toContain("<｜User｜>hi<｜System｜>Mode: plan.<｜end▁of▁instructions｜><｜Assistant｜>");
    expect(prompt.indexOf("You are Claude Code.")).toBeLessThan(prompt.indexOf("<｜User｜>"));
  });

  test("effort hint: budget_tokens of 16000 or more", () => {
    expect(messagesEffortHint({ thinking: { type: "enabled", budget_tokens: 16000 } })).toBe(true);
    expect(messagesEffortHint({ thinking: { type: "enabled", budget_tokens: 15999 } })).toBe(false);
    expect(messagesEffortHint({})).toBe(false);
  });
});
