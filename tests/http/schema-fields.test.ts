// Issue 34 item 5: the business schemas describe every field the gateway reads. A value of a type no protocol has,
// in each newly described field, is a 400 invalid_request in the surface's shape with the dotted `param` of D4.3;
// every wide form the protocols allow, and fields the schemas do not name, still go through (D3.5), answered
// by the simulator as core.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startSimGateway, type SimGateway } from "../helpers/sim-gateway";

let gw: SimGateway;
beforeAll(async () => {
  gw = await startSimGateway();
});
afterAll(() => gw.stop());

type Shape = "chat" | "messages" | "generate";

async function post(path: string, body: unknown): Promise<{ status: number; json: any }> {
  const r = await fetch(gw.url + path, { method: "POST", headers: { ...gw.auth, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return { status: r.status, json: await r.json() };
}

/** The code, param (null on generate, which has none) and message of a 400 in the surface's own shape. */
function errorOf(shape: Shape, body: any): { code: string; param: string | null; message: string } {
  if (shape === "messages") {
    expect(body.type).toBe("error");
    expect(body.error.type).toBe("invalid_request_error");
    return body.error;
  }
  if (shape === "generate") {
    expect(body.error.status).toBe("INVALID_ARGUMENT");
    return { code: body.error.details[0].reason, param: null, message: body.error.message };
  }
  expect(body.error.type).toBe("invalid_request_error");
  return body.error;
}

const user = { role: "user", content: "hi" };
const chat = (extra: Record<string, unknown>) => ({ model: "gpt-4o", messages: [user], ...extra });
const chatMsg = (m: Record<string, unknown>) => ({ model: "gpt-4o", messages: [user, m] });
const resp = (extra: Record<string, unknown>) => ({ model: "gpt-4o", input: "hi", ...extra });
const msgs = (extra: Record<string, unknown>) => ({ model: "claude-x", messages: [user], ...extra });
const msgBlock = (b: unknown) => ({ model: "claude-x", messages: [{ role: "user", content: [b] }] });
const gen = (extra: Record<string, unknown>) => ({ contents: [{ role: "user", parts: [{ text: "hi" }] }], ...extra });
const genPart = (p: unknown) => ({ contents: [{ role: "user", parts: [p] }] });

const CHAT = "/v1/chat/completions";
const RESPONSES = "/v1/responses";
const MESSAGES = "/v1/messages";
const GENERATE = "/v1beta/models/gemini-2.5-flash:generateContent";

// [route, shape, case name, body, dotted param]
const WRONG: [string, Shape, string, unknown, string][] = [
  // chat: message fields and content parts
  [CHAT, "chat", "a text part's text a number", chatMsg({ role: "user", content: [{ type: "text", text: 5 }] }), "messages.1.content.0.text"],
  [CHAT, "chat", "an image_url a number", chatMsg({ role: "user", content: [{ type: "image_url", image_url: 5 }] }), "messages.1.content.0.image_url"],
  [CHAT, "chat", "an image_url's url an object", chatMsg({ role: "user", content: [{ type: "image_url", image_url: { url: {} } }] }), "messages.1.content.0.image_url.url"],
  [CHAT, "chat", "a file part's file_data a number", chatMsg({ role: "user", content: [{ type: "file", file: { file_data: 1 } }] }), "messages.1.content.0.file.file_data"],
  [CHAT, "chat", "a tool call's function a string", chatMsg({ role: "assistant", tool_calls: [{ id: "c", function: "f" }] }), "messages.1.tool_calls.0.function"],
  [CHAT, "chat", "a tool call's name a number", chatMsg({ role: "assistant", tool_calls: [{ id: "c", function: { name: 1 } }] }), "messages.1.tool_calls.0.function.name"],
  [CHAT, "chat", "reasoning_content a number", chatMsg({ role: "assistant", content: "x", reasoning_content: 3 }), "messages.1.reasoning_content"],
  [CHAT, "chat", "tool_call_id a number", chatMsg({ role: "tool", content: "x", tool_call_id: 3 }), "messages.1.tool_call_id"],
  // chat: request-level fields
  [CHAT, "chat", "tools an object", chat({ tools: {} }), "tools"],
  [CHAT, "chat", "a tool a string", chat({ tools: ["ls"] }), "tools.0"],
  [CHAT, "chat", "a tool's function name a number", chat({ tools: [{ type: "function", function: { name: 7 } }] }), "tools.0.function.name"],
  [CHAT, "chat", "tool_choice a number", chat({ tool_choice: 1 }), "tool_choice"],
  [CHAT, "chat", "tool_choice.function.name a number", chat({ tool_choice: { type: "function", function: { name: 1 } } }), "tool_choice.function.name"],
  [CHAT, "chat", "response_format a string", chat({ response_format: "json" }), "response_format"],
  [CHAT, "chat", "response_format.type a number", chat({ response_format: { type: 1 } }), "response_format.type"],
  [CHAT, "chat", "stream_options a string", chat({ stream_options: "usage" }), "stream_options"],
  [CHAT, "chat", "stream_options.include_usage a string", chat({ stream_options: { include_usage: "yes" } }), "stream_options.include_usage"],
  [CHAT, "chat", "thinking a number", chat({ thinking: 1 }), "thinking"],
  [CHAT, "chat", "reasoning a number", chat({ reasoning: 2 }), "reasoning"],
  [CHAT, "chat", "reasoning.effort a number", chat({ reasoning: { effort: 2 } }), "reasoning.effort"],
  [CHAT, "chat", "reasoning_effort a boolean", chat({ reasoning_effort: true }), "reasoning_effort"],
  [CHAT, "chat", "extra_body.reasoning_effort a number", chat({ extra_body: { reasoning_effort: 1 } }), "extra_body.reasoning_effort"],
  [CHAT, "chat", "file_ids a string", chat({ file_ids: "file-1" }), "file_ids"],
  // responses
  [RESPONSES, "chat", "a function_call item's name a number", resp({ input: [{ type: "function_call", name: 1, arguments: "{}" }] }), "input.0.name"],
  [RESPONSES, "chat", "an item's call_id a number", resp({ input: [{ type: "function_call_output", call_id: 1, output: "x" }] }), "input.0.call_id"],
  [RESPONSES, "chat", "a message item's part text a number", resp({ input: [{ role: "user", content: [{ type: "input_text", text: 1 }] }] }), "input.0.content.0.text"],
  [RESPONSES, "chat", "a namespace tool's tools a string", resp({ tools: [{ type: "namespace", name: "ns", tools: "x" }] }), "tools.0.tools"],
  [RESPONSES, "chat", "a custom tool's format a string", resp({ tools: [{ type: "custom", name: "c", format: "grammar" }] }), "tools.0.format"],
  [RESPONSES, "chat", "tool_choice.name a number", resp({ tool_choice: { type: "function", name: 5 } }), "tool_choice.name"],
  [RESPONSES, "chat", "text.format a string", resp({ text: { format: "json" } }), "text.format"],
  [RESPONSES, "chat", "previous_response_id a number", resp({ previous_response_id: 5 }), "previous_response_id"],
  [RESPONSES, "chat", "metadata a string", resp({ metadata: "m" }), "metadata"],
  [RESPONSES, "chat", "reasoning.effort a number", resp({ reasoning: { effort: 1 } }), "reasoning.effort"],
  // messages
  [MESSAGES, "messages", "a text block's text a number", msgBlock({ type: "text", text: 1 }), "messages.0.content.0.text"],
  [MESSAGES, "messages", "an image source a string", msgBlock({ type: "image", source: "x" }), "messages.0.content.0.source"],
  [MESSAGES, "messages", "a tool_result's content a number", msgBlock({ type: "tool_result", tool_use_id: "t", content: 5 }), "messages.0.content.0.content"],
  [MESSAGES, "messages", "a tool_result's is_error a string", msgBlock({ type: "tool_result", tool_use_id: "t", content: "x", is_error: "yes" }), "messages.0.content.0.is_error"],
  [MESSAGES, "messages", "a system block not an object", msgs({ system: ["s"] }), "system.0"],
  [MESSAGES, "messages", "tool_choice a string", msgs({ tool_choice: "auto" }), "tool_choice"],
  [MESSAGES, "messages", "a tool's name a number", msgs({ tools: [{ name: 1, input_schema: {} }] }), "tools.0.name"],
  [MESSAGES, "messages", "thinking.budget_tokens a string", msgs({ thinking: { type: "enabled", budget_tokens: "lots" } }), "thinking.budget_tokens"],
  [MESSAGES, "messages", "output_config.format a string", msgs({ output_config: { format: "json" } }), "output_config.format"],
  // generate-content (both spellings)
  [GENERATE, "generate", "a text part's text a number", genPart({ text: 1 }), "contents.0.parts.0.text"],
  [GENERATE, "generate", "inlineData a string", genPart({ inlineData: "AAEC" }), "contents.0.parts.0.inlineData"],
  [GENERATE, "generate", "function_call.name a number", genPart({ function_call: { name: 1 } }), "contents.0.parts.0.function_call.name"],
  [GENERATE, "generate", "systemInstruction a number", gen({ systemInstruction: 1 }), "systemInstruction"],
  [GENERATE, "generate", "tools' functionDeclarations an object", gen({ tools: [{ functionDeclarations: {} }] }), "tools.0.functionDeclarations"],
  [GENERATE, "generate", "toolConfig.functionCallingConfig.mode a number", gen({ toolConfig: { functionCallingConfig: { mode: 1 } } }), "toolConfig.functionCallingConfig.mode"],
  [GENERATE, "generate", "thinking_budget a string", gen({ generation_config: { thinking_config: { thinking_budget: "x" } } }), "generation_config.thinking_config.thinking_budget"],
  [GENERATE, "generate", "responseMimeType a number", gen({ generationConfig: { responseMimeType: 1 } }), "generationConfig.responseMimeType"],
  // embeddings
  ["/v1/embeddings", "chat", "an input item an object", { model: "text-embedding-3-small", input: ["a", {}] }, "input.1"],
];

describe("a wrong type in a described field → 400 invalid_request with its dotted param", () => {
  test.each(WRONG)("%s %s: %s", async (path, shape, _name, body, param) => {
    const r = await post(path, body);
    expect(r.status).toBe(400);
    const err = errorOf(shape, r.json);
    expect(err.code).toBe("invalid_request");
    if (shape !== "generate") expect(err.param).toBe(param);
    expect(err.message).toStartWith(`${param} `);
  });
});

// Bodies in the wide forms the protocols allow, with fields no schema names at every level.
const ACCEPTED: [string, string, unknown][] = [
  [
    CHAT,
    "chat: unknown fields, odd content forms (§3.1), null options, thinking switches in every form",
    {
      model: "gpt-4o",
      x_unknown: { any: ["thing"] },
      messages: [
        { role: "system", content: [{ type: "text", text: "s", cache_control: { type: "ephemeral" } }], x_meta: 1 },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "ls", arguments: { dir: "." } }, x: 1 }], reasoning_content: [{ text: "r" }, "s"] },
        { role: "tool", tool_call_id: "c1", content: { odd: true } },
        { role: "user", content: ["plain", 7, null, [1], { type: "refusal", refusal: "no" }, { type: "input_audio", input_audio: { data: "AA" } }, { type: "text", text: "q" }] },
      ],
      tools: [{ type: "function", function: { name: "ls", description: null, parameters: { type: "object" }, strict: true } }, { type: "web_search" }],
      tool_choice: null,
      response_format: null,
      stream_options: null,
      parallel_tool_calls: "whatever",
      thinking: { type: "enabled", budget_tokens: 100 },
      reasoning: true,
      extra_body: { reasoning_effort: "low", vendor: 1 },
      // (A file id would be checked against the simulator's files: a null list is the lenient form here.)
      file_ids: null,
      logprobs: true,
    },
  ],
  [
    RESPONSES,
    "responses: unknown item kinds and fields, namespace and custom tools",
    {
      model: "gpt-4o",
      input: [
        { type: "reasoning", summary: [{ type: "summary_text", text: "t" }], encrypted_content: "x" },
        { type: "item_reference", id: "msg_1" },
        { type: "message", role: "user", content: [{ type: "input_text", text: "q", annotations: [] }], x: 1 },
      ],
      tools: [
        { type: "namespace", name: "ns", description: "d", tools: [{ type: "function", name: "f", parameters: {} }] },
        { type: "custom", name: "c", format: { type: "grammar", syntax: "lark", definition: "start: /.+/" } },
        { type: "file_search", vector_store_ids: ["v"] },
      ],
      text: { format: { type: "text" }, verbosity: "low" },
      reasoning: { effort: "minimal", summary: "auto" },
      metadata: { a: "b" },
      include: ["reasoning.encrypted_content"],
    },
  ],
  [
    MESSAGES,
    "messages: unknown blocks and fields, thinking blocks, server tools",
    {
      model: "claude-x",
      max_tokens: 100,
      system: [{ type: "text", text: "s", cache_control: { type: "ephemeral" } }],
      messages: [
        { role: "user", content: [{ type: "text", text: "q", citations: null }] },
        { role: "assistant", content: [{ type: "thinking", thinking: "t", signature: "s" }, { type: "redacted_thinking", data: "x" }, { type: "tool_use", id: "t1", name: "ls", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "a" }], is_error: false }, { type: "container_upload", file_id: "f" }] },
      ],
      tools: [{ name: "ls", input_schema: { type: "object" } }, { type: "web_search_20250305", name: "web_search", max_uses: 1 }],
      tool_choice: { type: "auto", disable_parallel_tool_use: true },
      metadata: { user_id: "u" },
    },
  ],
  [
    GENERATE,
    "generate-content: snake_case spellings, unknown parts and fields",
    {
      contents: [
        { role: "user", parts: [{ text: "q" }, { file_data: { file_uri: "gs://x" } }, { executableCode: { code: "1" } }] },
        { role: "model", parts: [{ text: "t", thought: true, thoughtSignature: "s" }, { function_call: { name: "ls", args: {} } }] },
        { role: "function", parts: [{ function_response: { name: "ls", response: { output: "a" } } }] },
      ],
      system_instruction: { parts: [{ text: "s" }], role: "system" },
      tools: [{ function_declarations: [{ name: "ls", parameters_json_schema: { type: "object" } }] }, { googleSearch: {} }],
      tool_config: { function_calling_config: { mode: "AUTO" } },
      generation_config: { temperature: 0.1, thinking_config: { include_thoughts: true }, candidateCount: 1 },
      safetySettings: [],
    },
  ],
];

describe("the wide forms and unknown fields are still accepted", () => {
  test.each(ACCEPTED)("%s %s", async (path, _name, body) => {
    const r = await post(path, body);
    expect(r.status).toBe(200);
  });
});
