// End to end with the official @anthropic-ai/sdk (baseURL + apiKey) and @google/genai (httpOptions.baseUrl +
// apiKey) against the compiled binary and the simulator.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI, Type } from "@google/genai";
import { startBinary, type RunningBinary } from "../helpers/binary";
import { startCoreSimulator, type CoreSimulator } from "../../src/sim/index";

let sim: CoreSimulator;
let gw: RunningBinary;
let anthropic: Anthropic;
let genai: GoogleGenAI;

beforeAll(async () => {
  sim = await startCoreSimulator({ difficulty: 1000, accounts: [{ email: "a@sim.test", password: "pw-a" }] });
  gw = await startBinary({ config: { keys: ["sk-e2e"], accounts: [{ email: "a@sim.test", password: "pw-a" }] }, env: { SVC_CORE_BASE_URL: sim.url } });
  anthropic = new Anthropic({ baseURL: `${gw.url}/msgapi`, apiKey: "sk-e2e", maxRetries: 0 });
  genai = new GoogleGenAI({ apiKey: "sk-e2e", httpOptions: { baseUrl: gw.url } });
}, 120_000);

afterAll(async () => {
  await gw?.stop();
  await sim?.stop();
});

const weatherTool = {
  name: "get_weather",
  description: "Weather for a city",
  input_schema: { type: "object" as const, properties: { city: { type: "string" } }, required: ["city"] },
};

describe("@anthropic-ai/sdk", () => {
  test("plain message", async () => {
    const m = await anthropic.messages.create({ model: "claude-sonnet-4-5", max_tokens: 256, messages: [{ role: "user", content: "Hi messages" }] });
    expect(m.type).toBe("message");
    expect(m.model).toBe("claude-sonnet-4-5");
    expect(m.stop_reason).toBe("end_turn");
    const text = m.content.filter((b) => b.type === "text").map((b) => (b as Anthropic.TextBlock).text).join("");
    expect(text).toContain("Hi messages");
  });

  test("streaming with thinking switched on shows thinking blocks, never signature deltas", async () => {
    const stream = anthropic.messages.stream({
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      thinking: { type: "enabled", budget_tokens: 1024 },
      messages: [{ role: "user", content: "Think and answer" }],
    });
    const types: string[] = [];
    stream.on("streamEvent", (e) => types.push(e.type === "content_block_delta" ? `delta:${e.delta.type}` : e.type));
    const final = await stream.finalMessage();
    expect(final.content.some((b) => b.type === "thinking")).toBe(true);
    expect(types).toContain("delta:thinking_delta");
    expect(types).not.toContain("delta:signature_delta");
    expect(types[0]).toBe("message_start");
    expect(types[types.length - 1]).toBe("message_stop");
  });

  test("-nothinking never sends thinking blocks", async () => {
    const m = await anthropic.messages.create({
      model: "claude-sonnet-4-5-nothinking",
      max_tokens: 256,
      thinking: { type: "enabled", budget_tokens: 1024 },
      messages: [{ role: "user", content: "No thinking" }],
    });
    expect(m.content.some((b) => b.type === "thinking")).toBe(false);
  });

  test("a full tool loop: tool_use, tool_result, final answer", async () => {
    const first = await anthropic.messages.create({ model: "claude-opus-4-6", max_tokens: 512, tools: [weatherTool], messages: [{ role: "user", content: "use get_weather for me" }] });
    expect(first.stop_reason).toBe("tool_use");
    const use = first.content.find((b) => b.type === "tool_use") as Anthropic.ToolUseBlock;
    expect(use.name).toBe("get_weather");
    expect(use.id).toMatch(/^toolu_/);
    expect(use.input).toHaveProperty("city");
    expect(JSON.stringify(first.content)).not.toContain("svcml");
    const second = await anthropic.messages.create({
      model: "claude-opus-4-6",
      max_tokens: 512,
      tools: [weatherTool],
      messages: [
        { role: "user", content: "use get_weather for me" },
        { role: "assistant", content: first.content },
        { role: "user", content: [{ type: "tool_result", tool_use_id: use.id, content: "Cloudy" }] },
      ],
    });
    expect(second.stop_reason).toBe("end_turn");
    expect((second.content[0] as Anthropic.TextBlock).text).toContain("Cloudy");
  });

  test("streaming tool call: tool_use block and stop_reason tool_use", async () => {
    const stream = anthropic.messages.stream({ model: "claude-opus-4-6", max_tokens: 512, tools: [weatherTool], messages: [{ role: "user", content: "call get_weather" }] });
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe("tool_use");
    expect(final.content.find((b) => b.type === "tool_use")).toMatchObject({ name: "get_weather" });
  });

  test("count_tokens and the model list", async () => {
    const c = await anthropic.messages.countTokens({ model: "claude-sonnet-4-5", messages: [{ role: "user", content: "count these tokens please" }] });
    expect(c.input_tokens).toBeGreaterThan(0);
    const models = await anthropic.models.list();
    expect(models.data[0]!.id).toBe("claude-opus-4-6");
  });

  test("errors surface as the SDK's own classes", async () => {
    const err = await anthropic.messages.create({ model: "claude-2.1", max_tokens: 10, messages: [{ role: "user", content: "x" }] }).catch((e) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    const bad = new Anthropic({ baseURL: `${gw.url}/msgapi`, apiKey: "wrong-key", maxRetries: 0 });
    const auth = await bad.messages.create({ model: "claude-sonnet-4-5", max_tokens: 10, messages: [{ role: "user", content: "x" }] }).catch((e) => e);
    expect(auth).toBeInstanceOf(Anthropic.AuthenticationError);
  });
});

describe("@google/genai", () => {
  test("generateContent, plain", async () => {
    const r = await genai.models.generateContent({ model: "gemini-2.5-flash", contents: "Hello generate" });
    expect(r.text).toContain("Hello generate");
    expect(String(r.candidates![0]!.finishReason)).toBe("STOP");
    expect(r.usageMetadata!.totalTokenCount).toBeGreaterThan(0);
  });

  test("generateContentStream", async () => {
    const stream = await genai.models.generateContentStream({ model: "gemini-2.5-pro", contents: "Stream generate" });
    let text = "";
    let finish = "";
    for await (const chunk of stream) {
      text += chunk.text ?? "";
      if (chunk.candidates?.[0]?.finishReason) finish = chunk.candidates[0].finishReason;
    }
    expect(text).toContain("Stream generate");
    expect(finish).toBe("STOP");
  });

  test("thinking parts only with includeThoughts", async () => {
    const r = await genai.models.generateContent({ model: "gemini-2.5-flash", contents: "think", config: { thinkingConfig: { includeThoughts: true } } });
    expect(r.candidates![0]!.content!.parts!.some((p) => p.thought)).toBe(true);
    const r2 = await genai.models.generateContent({ model: "gemini-2.5-flash", contents: "think" });
    expect(r2.candidates![0]!.content!.parts!.some((p) => p.thought)).toBe(false);
  });

  test("a full tool loop with functionCall and functionResponse", async () => {
    const tools = [{ functionDeclarations: [{ name: "get_weather", description: "Weather", parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ["city"] } }] }];
    const first = await genai.models.generateContent({ model: "gemini-2.5-flash", contents: "call get_weather please", config: { tools } });
    const call = first.functionCalls?.[0];
    expect(call?.name).toBe("get_weather");
    expect(call?.args).toHaveProperty("city");
    const second = await genai.models.generateContent({
      model: "gemini-2.5-flash",
      config: { tools },
      contents: [
        { role: "user", parts: [{ text: "call get_weather please" }] },
        { role: "model", parts: [{ functionCall: call! as any }] },
        { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { result: "Windy" } } }] },
      ],
    });
    expect(second.text).toContain("Windy");
  });

  test("countTokens, and bad JSON is 400 INVALID_ARGUMENT", async () => {
    const c = await genai.models.countTokens({ model: "gemini-2.5-flash", contents: "count me" });
    expect(c.totalTokens).toBeGreaterThan(0);
    const r = await fetch(`${gw.url}/v1beta/models/gemini-2.5-flash:generateContent?key=sk-e2e`, { method: "POST", body: "{bad" });
    expect(r.status).toBe(400);
    expect((await r.json()).error).toMatchObject({ code: 400, status: "INVALID_ARGUMENT" });
  });
});
