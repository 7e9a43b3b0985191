// Every surface renders natively from the same TurnEvents; these pin down each stream's event order.
import { describe, expect, test } from "bun:test";
import { runTransform } from "../helpers/chunking";
import type { TurnEvent, Usage } from "../../src/pipeline/types";
import { chatStreamStage } from "../../src/surfaces/chat/render";
import { responsesStreamStage, type ResponseMeta } from "../../src/surfaces/responses/render";
import { messagesStreamStage } from "../../src/surfaces/messages/render";
import { generateStreamStage } from "../../src/surfaces/generate/render";
import { stageStream } from "../helpers/stages";
import { inStreamError } from "../../src/pipeline/turn-assembler";

// The renderers as streams of their own (the routes run them fused with the turn's stages).
const chatStreamRenderer = (...a: Parameters<typeof chatStreamStage>) => stageStream(chatStreamStage(...a));
const responsesStreamRenderer = (...a: Parameters<typeof responsesStreamStage>) => stageStream(responsesStreamStage(...a));
const messagesStreamRenderer = (...a: Parameters<typeof messagesStreamStage>) => stageStream(messagesStreamStage(...a));
const generateStreamRenderer = (...a: Parameters<typeof generateStreamStage>) => stageStream(generateStreamStage(...a));

const usage: Usage = { promptTokens: 10, completionTokens: 7, reasoningTokens: 3, totalTokens: 17 };
const toolTurn: TurnEvent[] = [
  { type: "thinking", text: "let me" },
  { type: "text", text: "Reading.\n" },
  { type: "call_start", index: 0, id: "call_abc", name: "Read_File" },
  { type: "call_args", index: 0, fragment: '{"path":"a.txt"' },
  { type: "call_args", index: 0, fragment: "}" },
  { type: "call_end", index: 0 },
  { type: "finish", outcome: "tool_calls", usage },
];

function frames(sse: string[]): { event?: string; data: any }[] {
  return sse
    .join("")
    .split("\n\n")
    .filter((b) => b && !b.startsWith(":"))
    .map((b) => {
      const ev = /^event: (.*)$/m.exec(b)?.[1];
      const data = /^data: (.*)$/m.exec(b)![1]!;
      return { event: ev, data: data === "[DONE]" ? "[DONE]" : JSON.parse(data) };
    });
}

describe("chat stream", () => {
  test("role first, reasoning, content, tool call start then arguments, final chunk with usage, [DONE]", async () => {
    const out = frames(await runTransform(chatStreamRenderer({ id: "chatcmpl-1", created: 1, model: "gpt-4o", exposeThinking: true }), toolTurn));
    const deltas = out.slice(0, -1).map((f) => f.data.choices[0].delta);
    expect(deltas[0]).toEqual({ role: "assistant", content: "" });
    expect(deltas[1]).toEqual({ reasoning_content: "let me" });
    expect(deltas[2]).toEqual({ content: "Reading.\n" });
    expect(deltas[3].tool_calls[0]).toEqual({ index: 0, id: "call_abc", type: "function", function: { name: "Read_File", arguments: "" } });
    expect(deltas[4].tool_calls[0].function.arguments + deltas[5].tool_calls[0].function.arguments).toBe('{"path":"a.txt"}');
    const last = out[out.length - 2]!.data;
    expect(last.choices[0]).toMatchObject({ delta: {}, finish_reason: "tool_calls" });
    expect(last.usage).toEqual({ prompt_tokens: 10, completion_tokens: 7, total_tokens: 17, completion_tokens_details: { reasoning_tokens: 3 } });
    expect(out[out.length - 1]!.data).toBe("[DONE]");
    expect(out.every((f) => f.data === "[DONE]" || f.data.model === "gpt-4o")).toBe(true);
  });

  test("a failure after the stream started is an error frame then [DONE], no finish frame", async () => {
    const out = frames(
      await runTransform(chatStreamRenderer({ id: "c", created: 1, model: "m", exposeThinking: false }), [
        { type: "thinking", text: "hidden" },
        { type: "error", status: 503, code: "upstream_empty_output", message: "empty" },
      ]),
    );
    expect(out).toHaveLength(3);
    expect(out[1]!.data).toEqual({ error: { message: "empty", type: "service_unavailable_error", code: "upstream_empty_output", param: null } });
    expect(out[2]!.data).toBe("[DONE]");
  });
});

describe("responses stream", () => {
  const meta: ResponseMeta = {
    id: "resp_1",
    createdAt: 1,
    model: "gpt-5",
    instructions: null,
    tools: [],
    toolChoice: "auto",
    previousResponseId: null,
    store: true,
    metadata: {},
    exposeThinking: true,
    requireCall: false,
  };

  test("event order with reasoning, text and a call; sequence numbers from 0; ids reused in completed", async () => {
    let final: any;
    const out = frames(await runTransform(responsesStreamRenderer(meta, (r) => (final = r)), toolTurn));
    const names = out.filter((f) => f.event).map((f) => f.event);
    expect(names).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.reasoning_summary_part.added",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.done",
      "response.reasoning_summary_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    out.filter((f) => f.event).forEach((f, i) => {
      expect(f.data.sequence_number).toBe(i);
      expect(f.data.type).toBe(f.event);
      expect(f.data.response_id).toBe("resp_1");
    });
    expect(out[out.length - 1]!.data).toBe("[DONE]");
    const completed = out.find((f) => f.event === "response.completed")!.data.response;
    expect(completed.status).toBe("completed");
    expect(completed.output.map((i: any) => i.type)).toEqual(["reasoning", "message", "function_call"]);
    expect(completed.output[2]).toMatchObject({ call_id: "call_abc", arguments: '{"path":"a.txt"}', status: "completed" });
    const added = out.filter((f) => f.event === "response.output_item.added").map((f) => f.data.item.id);
    expect(completed.output.map((i: any) => i.id)).toEqual(added);
    expect(final.status).toBe("completed");
  });

  test("tool_choice required without a call: response.failed and no response.completed", async () => {
    const out = frames(
      await runTransform(responsesStreamRenderer({ ...meta, requireCall: true }, () => {}), [
        { type: "text", text: "no tools today" },
        { type: "finish", outcome: "stop", usage },
      ]),
    );
    const names = out.filter((f) => f.event).map((f) => f.event);
    expect(names).toContain("response.failed");
    expect(names).not.toContain("response.completed");
    expect(out.find((f) => f.event === "response.failed")!.data.response.error.code).toBe("tool_choice_violation");
  });
});

describe("messages stream", () => {
  test("message_start, ping, blocks in order with one open at a time, message_delta, message_stop", async () => {
    const out = frames(
      await runTransform(
        messagesStreamRenderer({ id: "msg_1", model: "claude-sonnet-4-5", exposeThinking: true, promptTokens: 10, declaredTools: ["read_file"] }),
        toolTurn,
      ),
    );
    expect(out.map((f) => f.event)).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(out[2]!.data.content_block).toEqual({ type: "thinking", thinking: "", signature: "" });
    expect(out[8]!.data.content_block).toEqual({ type: "tool_use", id: "call_abc", name: "read_file", input: {} });
    expect(out[12]!.data.delta).toEqual({ stop_reason: "tool_use", stop_sequence: null });
    expect(JSON.stringify(out)).not.toContain("signature_delta");
  });
});

describe("generate-content stream", () => {
  const meta = { responseId: "r", model: "gemini-2.5-flash", thinkingOn: true, toolMode: true };
  test("with tools, text and thought parts stream as they come; the function calls come in the final chunk with usage", async () => {
    const out = frames(await runTransform(generateStreamRenderer({ ...meta, exposeThinking: true }), toolTurn));
    expect(out.map((f) => f.data.candidates[0].content.parts)).toEqual([
      [{ text: "let me", thought: true }],
      [{ text: "Reading.\n" }],
      [{ functionCall: { name: "Read_File", args: { path: "a.txt" } } }],
    ]);
    expect(out.slice(0, -1).every((f) => f.data.candidates[0].finishReason === undefined && f.data.usageMetadata === undefined)).toBe(true);
    const last = out[out.length - 1]!.data;
    expect(last.candidates[0].finishReason).toBe("STOP");
    expect(last.usageMetadata).toEqual({ promptTokenCount: 10, candidatesTokenCount: 4, thoughtsTokenCount: 3, totalTokenCount: 17 });
  });

  test("with tools, text written after a call still streams before the calls; two calls come together at the end", async () => {
    const events: TurnEvent[] = [
      { type: "text", text: "a" },
      { type: "call_start", index: 0, id: "c0", name: "f" },
      { type: "call_args", index: 0, fragment: '{"x":1}' },
      { type: "call_end", index: 0 },
      { type: "text", text: "b" },
      { type: "call_start", index: 1, id: "c1", name: "g" },
      { type: "call_args", index: 1, fragment: "{}" },
      { type: "call_end", index: 1 },
      { type: "finish", outcome: "tool_calls", usage },
    ];
    const out = frames(await runTransform(generateStreamRenderer({ ...meta, exposeThinking: false }), events));
    expect(out.map((f) => f.data.candidates[0].content.parts)).toEqual([
      [{ text: "a" }],
      [{ text: "b" }],
      [{ functionCall: { name: "f", args: { x: 1 } } }, { functionCall: { name: "g", args: {} } }],
    ]);
  });

  test("with tools, a failure after some text leaves that text streamed, then the error chunk", async () => {
    const out = frames(
      await runTransform(generateStreamRenderer({ ...meta, exposeThinking: false }), [
        { type: "text", text: "partial answer" },
        { type: "error", status: 502, code: "upstream_error", message: "core failed" },
      ]),
    );
    expect(out).toHaveLength(2);
    expect(out[0]!.data.candidates[0].content.parts).toEqual([{ text: "partial answer" }]);
    expect(out[1]!.data.error).toMatchObject({ code: 502 });
  });

  // D4.5 as amended (issue 30 item 5): every in-stream error carries its code as details[0].reason.
  const kinds: [string, TurnEvent][] = [
    ["core silence", inStreamError("upstream_timeout")],
    ["empty output after reasoning", inStreamError("upstream_empty_output")],
    ["prompt too long", inStreamError("input_exceeds_limit")],
    ["core failure mid-answer", inStreamError("connection reset")],
  ];
  test.each(kinds)("in-stream error (%s): {code, message, status, details:[{reason}]}", async (_name, error) => {
    const out = frames(
      await runTransform(generateStreamRenderer({ responseId: "r", model: "gemini-2.5-flash", exposeThinking: false, thinkingOn: false, toolMode: false }), [
        { type: "text", text: "partial" },
        error,
      ]),
    );
    const e = error as Extract<TurnEvent, { type: "error" }>;
    const last = out[out.length - 1]!.data;
    expect(Object.keys(last)).toEqual(["error"]);
    expect(last.error).toEqual({ code: e.status, message: e.message, status: e.status === 400 ? "INVALID_ARGUMENT" : "UNAVAILABLE", details: [{ reason: e.code }] });
  });
});
