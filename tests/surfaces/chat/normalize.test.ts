import { describe, expect, test } from "bun:test";
import { chatEffortHint, normalizeChat } from "../../../src/surfaces/chat/normalize";
import { gatewayErrorOf } from "../../helpers/errors";

const PNG_B64 = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]).toString("base64");

describe("chat normaliser (§3.3)", () => {
  test("roles map to turns; developer is system, unknown roles are user, name is ignored", () => {
    const r = normalizeChat({
      messages: [
        { role: "developer", content: "dev rules" },
        { role: "system", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] },
        { role: "user", name: "bob", content: "hi" },
        { role: "critic", content: "other" },
      ],
    });
    expect(r.turns).toEqual([
      { role: "system", text: "dev rules" },
      { role: "system", text: "a\nb" },
      { role: "user", text: "hi" },
      { role: "user", text: "other" },
    ]);
  });

  test("user parts: text joined by newline, inline images and files uploaded, remote image named, file ids kept", () => {
    const r = normalizeChat({
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "look" },
            { type: "image_url", image_url: { url: `data:image/png;base64,${PNG_B64}` } },
            { type: "image_url", image_url: { url: "https://example.com/cat.png" } },
            { type: "input_text", text: "and this" },
            { type: "file", file: { file_data: `data:application/pdf;base64,${PNG_B64.slice(0, 4)}`, filename: "doc.pdf" } },
            { type: "file", file: { file_id: "file-123" } },
          ],
        },
      ],
      ref_file_ids: ["file-9"],
    });
    expect(r.turns[0]!.text).toBe("look\n[image: https://example.com/cat.png]\nand this");
    expect(r.files.length).toBe(2);
    expect(r.files[0]!.mime).toBe("image/png");
    expect([...r.files[0]!.data]).toEqual([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    expect(r.files[1]!.filename).toBe("doc.pdf");
    expect(r.fileIds).toEqual(["file-123", "file-9"]);
  });

  test("identical inline images are uploaded once", () => {
    const img = { type: "image_url", image_url: { url: `data:image/png;base64,${PNG_B64}` } };
    expect(normalizeChat({ messages: [{ role: "user", content: [img, img] }] }).files.length).toBe(1);
  });

  test("more than 50 inline files is 400 too_many_files", () => {
    const parts = Array.from({ length: 51 }, (_, i) => ({ type: "image_url", image_url: { url: `data:image/png;base64,${Buffer.from([i]).toString("base64")}` } }));
    const e = gatewayErrorOf(() => normalizeChat({ messages: [{ role: "user", content: parts }] }));
    expect(e.status).toBe(400);
    expect(e.code).toBe("too_many_files");
    expect(normalizeChat({ messages: [{ role: "user", content: parts.slice(0, 50) }] }).files.length).toBe(50);
  });

  test("assistant: text, reasoning_content, tool_calls and legacy function_call", () => {
    const r = normalizeChat({
      messages: [
        { role: "user", content: "q" },
        {
          role: "assistant",
          content: [{ type: "text", text: "checking" }, { type: "thinking", thinking: "ignored because reasoning_content wins" }],
          reasoning_content: "why",
          tool_calls: [{ id: "call_1", type: "function", function: { name: "ls", arguments: '{"dir":"."}' } }],
          function_call: { name: "legacy", arguments: "{}" },
        },
        { role: "tool", tool_call_id: "call_1", content: "a.ts" },
      ],
    });
    expect(r.turns[1]).toEqual({
      role: "assistant",
      text: "checking",
      reasoning: "why",
      toolCalls: [
        { name: "ls", arguments: '{"dir":"."}', id: "call_1" },
        { name: "legacy", arguments: "{}" },
      ],
    });
    // The result learns its tool name from the call, for the context file only.
    expect(r.turns[2]).toEqual({ role: "tool", text: "a.ts", toolResultOf: { callId: "call_1", name: "ls" } });
  });

  test("reasoning from thinking parts when reasoning_content is absent; null content is empty; other JSON is compact text", () => {
    const r = normalizeChat({
      messages: [
        { role: "assistant", content: [{ type: "reasoning", text: "r1" }, { type: "output_text", text: "t" }] },
        { role: "assistant", content: null },
        { role: "user", content: { odd: true } },
      ],
    });
    expect(r.turns[0]).toEqual({ role: "assistant", text: "t", reasoning: "r1" });
    expect(r.turns[1]).toEqual({ role: "assistant", text: "" });
    expect(r.turns[2]!.text).toBe('{"odd":true}');
  });

  test("tools in function and flat forms; nameless ones ignored; sampling passes through", () => {
    const r = normalizeChat({
      messages: [{ role: "user", content: "q" }],
      tools: [
        { type: "function", function: { name: "a", description: "A", parameters: { type: "object" } } },
        { name: "b", input_schema: { type: "object", properties: {} } },
        { type: "function", function: { description: "no name" } },
      ],
      tool_choice: "required",
      parallel_tool_calls: false,
      temperature: 0.2,
      stop: ["x"],
      logprobs: true,
    });
    expect(r.tools).toEqual([
      { name: "a", description: "A", parameters: { type: "object" } },
      { name: "b", parameters: { type: "object", properties: {} } },
    ]);
    expect(r.toolChoice).toEqual({ kind: "required" });
    expect(r.singleCall).toBe(true);
    expect(r.passThrough).toEqual({ temperature: 0.2, stop: ["x"] });
  });

  test("effort hint: high, xhigh or max, also under extra_body", () => {
    expect(chatEffortHint({ reasoning_effort: "high" })).toBe(true);
    expect(chatEffortHint({ reasoning: { effort: "xhigh" } })).toBe(true);
    expect(chatEffortHint({ extra_body: { reasoning_effort: "max" } })).toBe(true);
    expect(chatEffortHint({ reasoning_effort: "medium" })).toBe(false);
    expect(chatEffortHint({})).toBe(false);
    expect(normalizeChat({ messages: [{ role: "user", content: "q" }], reasoning_effort: "high" }).highEffortHint).toBe(true);
  });

  test("system and developer messages anywhere are system turns in place (issue 16)", () => {
    const r = normalizeChat({
      messages: [
        { role: "user", content: "q1" },
        { role: "developer", content: [{ type: "text", text: "dev" }] },
        { role: "assistant", content: "a1" },
        { role: "system", content: "sys" },
        { role: "user", content: "q2" },
      ],
    });
    expect(r.turns.map((t) => [t.role, t.text])).toEqual([
      ["user", "q1"],
      ["system", "dev"],
      ["assistant", "a1"],
      ["system", "sys"],
      ["user", "q2"],
    ]);
  });
});
