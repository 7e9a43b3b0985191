import { describe, expect, test } from "bun:test";
import { normalizeResponses, responsesEffortHint } from "../../../src/surfaces/responses/normalize";
import { gatewayErrorOf } from "../../helpers/errors";

const wide = { wideInput: true };

describe("responses normaliser (§3.4)", () => {
  test("instructions come first as a system turn; a string input is one user turn", () => {
    expect(normalizeResponses({ instructions: "Be kind.", input: "hello" }, wide).turns).toEqual([
      { role: "system", text: "Be kind." },
      { role: "user", text: "hello" },
    ]);
    expect(normalizeResponses({ instructions: "   ", input: "x" }, wide).turns).toEqual([{ role: "user", text: "x" }]);
  });

  test("an object input is a one-item array", () => {
    expect(normalizeResponses({ input: { role: "user", content: [{ type: "input_text", text: "hi" }] } }, wide).turns).toEqual([{ role: "user", text: "hi" }]);
  });

  test("message items: roles as in chat, input_text/output_text/text parts joined by newline, images uploaded", () => {
    const r = normalizeResponses(
      {
        input: [
          { type: "message", role: "developer", content: "rules" },
          { role: "user", content: [{ type: "input_text", text: "a" }, { type: "input_image", image_url: "data:image/png;base64,AAEC" }, { type: "text", text: "b" }] },
          { type: "message", role: "assistant", content: [{ type: "output_text", text: "ok" }] },
        ],
      },
      wide,
    );
    expect(r.turns).toEqual([
      { role: "system", text: "rules" },
      { role: "user", text: "a\nb" },
      { role: "assistant", text: "ok" },
    ]);
    expect([...r.files[0]!.data]).toEqual([0, 1, 2]);
  });

  test("consecutive function_call items merge into one assistant turn; outputs are tool turns", () => {
    const r = normalizeResponses(
      {
        input: [
          { role: "user", content: "go" },
          { type: "reasoning", summary: [{ type: "summary_text", text: "secret" }] },
          { type: "function_call", call_id: "call_a", name: "read", arguments: '{"p":1}' },
          { type: "function_call", call_id: "call_b", name: "list", arguments: "{}" },
          { type: "function_call_output", call_id: "call_a", output: "one" },
          { type: "function_call_output", call_id: "call_b", output: [{ type: "input_text", text: "x" }, { type: "input_text", text: "y" }] },
          { type: "item_reference", id: "msg_1" },
        ],
      },
      wide,
    );
    expect(r.turns).toEqual([
      { role: "user", text: "go" },
      {
        role: "assistant",
        text: "",
        toolCalls: [
          { name: "read", arguments: '{"p":1}', id: "call_a" },
          { name: "list", arguments: "{}", id: "call_b" },
        ],
      },
      { role: "tool", text: "one", toolResultOf: { callId: "call_a", name: "read" } },
      { role: "tool", text: "x\ny", toolResultOf: { callId: "call_b", name: "list" } },
    ]);
  });

  test("function calls separated by another item are separate turns", () => {
    const r = normalizeResponses(
      {
        input: [
          { type: "function_call", call_id: "1", name: "a", arguments: "{}" },
          { type: "function_call_output", call_id: "1", output: "r" },
          { type: "function_call", call_id: "2", name: "b", arguments: "{}" },
        ],
      },
      wide,
    );
    expect(r.turns.map((t) => t.role)).toEqual(["assistant", "tool", "assistant"]);
  });

  test("a non-empty messages array is read as chat messages instead of input", () => {
    const r = normalizeResponses({ messages: [{ role: "user", content: "from messages" }], input: "ignored" }, wide);
    expect(r.turns).toEqual([{ role: "user", text: "from messages" }]);
  });

  test("built-in tools are ignored; flat function tools, max_output_tokens and tool_choice are read", () => {
    const r = normalizeResponses(
      {
        input: "q",
        tools: [{ type: "web_search_preview" }, { type: "function", name: "f", description: "d", parameters: { type: "object" } }],
        tool_choice: { type: "function", name: "f" },
        max_output_tokens: 100,
        top_p: 0.9,
      },
      wide,
    );
    expect(r.tools).toEqual([{ name: "f", description: "d", parameters: { type: "object" } }]);
    expect(r.toolChoice).toEqual({ kind: "forced", name: "f" });
    expect(r.passThrough).toEqual({ top_p: 0.9, max_tokens: 100 });
  });

  test("strict mode (wide_input_strict_output false) reads only messages", () => {
    const strict = { wideInput: false };
    expect(normalizeResponses({ messages: [{ role: "user", content: "m" }] }, strict).turns).toEqual([{ role: "user", text: "m" }]);
    expect(gatewayErrorOf(() => normalizeResponses({ input: "x" }, strict)).param).toBe("input");
    expect(gatewayErrorOf(() => normalizeResponses({ messages: [{ role: "user", content: "m" }], instructions: "i" }, strict)).param).toBe("instructions");
    expect(gatewayErrorOf(() => normalizeResponses({}, strict)).param).toBe("messages");
  });

  test("a function_call item without a name is refused with its dotted param (shapes are the schema's: tests/http/schema-errors.test.ts)", () => {
    expect(gatewayErrorOf(() => normalizeResponses({ input: [{ type: "function_call", arguments: "{}" }] }, wide)).param).toBe("input.0.name");
  });

  test("effort hint from reasoning.effort", () => {
    expect(responsesEffortHint({ reasoning: { effort: "high" } })).toBe(true);
    expect(responsesEffortHint({ reasoning: { effort: "low" } })).toBe(false);
  });

  test("developer and system input items anywhere are system turns in place, after instructions (issue 16)", () => {
    const r = normalizeResponses(
      {
        instructions: "top",
        input: [
          { role: "user", content: "q1" },
          { type: "message", role: "developer", content: [{ type: "input_text", text: "dev" }] },
          { type: "function_call", name: "ls", arguments: "{}", call_id: "c1" },
          { type: "function_call_output", call_id: "c1", output: "r" },
          { role: "system", content: "sys" },
          { role: "user", content: "q2" },
        ],
      },
      { wideInput: true },
    );
    expect(r.turns.map((t) => [t.role, t.text])).toEqual([
      ["system", "top"],
      ["user", "q1"],
      ["system", "dev"],
      ["assistant", ""],
      ["tool", "r"],
      ["system", "sys"],
      ["user", "q2"],
    ]);
  });
});
