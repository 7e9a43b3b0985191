// Structured output on every surface through the real app and the simulator (issue 16 item 5): core is told
// in the prompt, only the JSON text comes back (streamed or not), a schema miss is retried once, tool calls
// still work; and the official SDKs read the answers.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI, Type } from "@google/genai";
import { startSimGateway, SIM_KEY, type SimGateway } from "../helpers/sim-gateway";
import { JSON_OUTPUT_HEADER } from "../../src/prompt/json-instruction";

const schema = { type: "object", properties: { city: { type: "string" }, population: { type: "integer" } }, required: ["city"] };
const FENCED = 'Sure! Here is the JSON:\n\n```json\n{"city": "Oslo", "population": 700000}\n```\n\nLet me know if you need more.';
const JSON_TEXT = '{"city": "Oslo", "population": 700000}';
const MODEL = "core-v4-flash";

let gw: SimGateway;
beforeAll(async () => {
  gw = await startSimGateway();
});
afterAll(() => gw.stop());
// Each test scripts its own answers: a queue left over by a failing test must not feed the next one.
beforeEach(() => {
  gw.sim.reset();
  gw.t.logs.length = 0;
});

const answer = (...texts: string[]) => {
  for (const text of texts) gw.sim.enqueue({ scenario: "no-thinking", params: { answer: text } });
};
const post = (path: string, json: unknown) => gw.t.req(path, { method: "POST", headers: gw.auth, json });
const dataLines = (body: string) =>
  body
    .split("\n")
    .filter((l) => l.startsWith("data: {"))
    .map((l) => JSON.parse(l.slice(6)));
const chatBody = (extra: Record<string, unknown>) => ({ model: MODEL, messages: [{ role: "user", content: "Capital of Norway?" }], ...extra });
const jsonSchemaFormat = { type: "json_schema", json_schema: { name: "place", schema } };

describe("chat response_format", () => {
  test("non-stream: the prompt carries the schema; the fenced answer comes back as the JSON alone", async () => {
    answer(FENCED);
    const r = await post("/v1/chat/completions", chatBody({ response_format: jsonSchemaFormat }));
    const body = await r.json();
    expect(body.choices[0].message.content).toBe(JSON_TEXT);
    expect(body.choices[0].finish_reason).toBe("stop");
    const prompt = gw.prompts().at(-1)!;
    expect(prompt).toContain(JSON_OUTPUT_HEADER);
    expect(prompt).toContain(`matches this JSON Schema (place):\n${JSON.stringify(schema)}`);
  });

  test("stream: the text is held back and the JSON goes out as deltas at the end", async () => {
    answer(FENCED);
    const r = await post("/v1/chat/completions", chatBody({ response_format: { type: "json_object" }, stream: true }));
    const chunks = dataLines(await r.text());
    const content = chunks.map((c) => c.choices?.[0]?.delta?.content ?? "").join("");
    expect(content).toBe(JSON_TEXT);
    expect(chunks.some((c) => c.choices?.[0]?.finish_reason === "stop")).toBe(true);
  });

  test("a schema miss is retried once with the problem; the retry's JSON is returned", async () => {
    answer('{"town": "Oslo"}', '```json\n{"city": "Oslo"}\n```');
    const r = await post("/v1/chat/completions", chatBody({ response_format: jsonSchemaFormat }));
    expect((await r.json()).choices[0].message.content).toBe('{"city": "Oslo"}');
    const prompts = gw.prompts();
    expect(prompts).toHaveLength(2);
    expect(prompts[1]).toContain('<｜Assistant｜>{"town": "Oslo"}<｜end▁of▁sentence｜><｜User｜>Your previous answer could not be used: $.city is required but missing.');
    expect(prompts[1]).toContain(JSON_OUTPUT_HEADER);
  });

  test("stream with a retry: the deltas carry the retry's JSON", async () => {
    answer("Oslo, probably.", '{"city":"Oslo"}');
    const r = await post("/v1/chat/completions", chatBody({ response_format: jsonSchemaFormat, stream: true }));
    const content = dataLines(await r.text())
      .map((c) => c.choices?.[0]?.delta?.content ?? "")
      .join("");
    expect(content).toBe('{"city":"Oslo"}');
  });

  test("a second miss: the answer as is, and a warning in the log", async () => {
    answer("No idea.", "Still no idea.");
    const r = await post("/v1/chat/completions", chatBody({ response_format: jsonSchemaFormat }));
    expect((await r.json()).choices[0].message.content).toBe("Still no idea.");
    expect(gw.t.logs.some((l) => l.includes("still not the requested JSON after one retry"))).toBe(true);
  });

  test("tool calls still work in JSON mode", async () => {
    gw.sim.enqueue({ scenario: "tool-call", params: { name: "get_weather", args: '{"city":"Oslo"}' } });
    const tools = [{ type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } } }];
    const r = await post("/v1/chat/completions", chatBody({ response_format: jsonSchemaFormat, tools }));
    const body = await r.json();
    expect(body.choices[0].finish_reason).toBe("tool_calls");
    expect(body.choices[0].message.tool_calls[0].function).toEqual({ name: "get_weather", arguments: '{"city":"Oslo"}' });
    expect(gw.prompts().at(-1)!).toContain("When you need a tool, call it as described in the Tools section");
  });

  test("without response_format nothing changes: prose stays prose", async () => {
    answer(FENCED);
    const r = await post("/v1/chat/completions", chatBody({}));
    expect((await r.json()).choices[0].message.content).toBe(FENCED);
    expect(gw.prompts().at(-1)!).not.toContain(JSON_OUTPUT_HEADER);
  });
});

describe("responses text.format", () => {
  const body = (stream: boolean) => ({ model: MODEL, input: "Capital of Norway?", stream, text: { format: { type: "json_schema", name: "place", schema } } });

  test("non-stream", async () => {
    answer(FENCED);
    const res = await (await post("/v1/responses", body(false))).json();
    expect(res.output_text).toBe(JSON_TEXT);
    expect(res.output.find((i: any) => i.type === "message").content[0].text).toBe(JSON_TEXT);
  });

  test("stream", async () => {
    answer(FENCED);
    const events = dataLines(await (await post("/v1/responses", body(true))).text());
    const deltas = events.filter((e) => e.type === "response.output_text.delta").map((e) => e.delta).join("");
    expect(deltas).toBe(JSON_TEXT);
    expect(events.find((e) => e.type === "response.completed").response.output_text).toBe(JSON_TEXT);
  });
});

describe("messages output_config.format", () => {
  const body = (stream: boolean) => ({ model: "claude-sonnet-5", max_tokens: 512, stream, output_config: { format: { type: "json_schema", schema } }, messages: [{ role: "user", content: "Capital?" }] });

  test("non-stream", async () => {
    answer(FENCED);
    const m = await (await post("/v1/messages", body(false))).json();
    expect(m.content.filter((b: any) => b.type === "text").map((b: any) => b.text).join("")).toBe(JSON_TEXT);
    expect(gw.prompts().at(-1)!).toContain(JSON.stringify(schema));
  });

  test("stream", async () => {
    answer(FENCED);
    const events = dataLines(await (await post("/v1/messages", body(true))).text());
    const text = events
      .filter((e) => e.type === "content_block_delta" && e.delta.type === "text_delta")
      .map((e) => e.delta.text)
      .join("");
    expect(text).toBe(JSON_TEXT);
  });
});

describe("generate-content responseMimeType", () => {
  const body = { contents: [{ role: "user", parts: [{ text: "Capital?" }] }], generationConfig: { responseMimeType: "application/json", responseSchema: { type: "OBJECT", properties: { city: { type: "STRING" } }, required: ["city"] } } };

  test("non-stream, with the schema shown to core as JSON Schema", async () => {
    answer(FENCED);
    const res = await (await post(`/v1beta/models/${MODEL}:generateContent`, body)).json();
    expect(res.candidates[0].content.parts.map((p: any) => p.text).join("")).toBe(JSON_TEXT);
    expect(gw.prompts().at(-1)!).toContain('{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}');
  });

  test("stream", async () => {
    answer(FENCED);
    const chunks = dataLines(await (await post(`/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`, body)).text());
    const text = chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? []).map((p: any) => p.text ?? "").join("");
    expect(text).toBe(JSON_TEXT);
  });
});

describe("official SDKs", () => {
  test("openai chat.completions with a json_schema response_format", async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: SIM_KEY, maxRetries: 0 });
    answer(FENCED);
    const c = await client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "Capital?" }], response_format: { type: "json_schema", json_schema: { name: "place", schema } } });
    expect(JSON.parse(c.choices[0]!.message.content!)).toEqual({ city: "Oslo", population: 700000 });
  });

  test("openai responses with text.format json_schema, streamed", async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: SIM_KEY, maxRetries: 0 });
    answer(FENCED);
    const stream = client.responses.stream({ model: MODEL, input: "Capital?", text: { format: { type: "json_schema", name: "place", schema } } });
    const final = await stream.finalResponse();
    expect(JSON.parse(final.output_text)).toEqual({ city: "Oslo", population: 700000 });
  });

  test("@google/genai with responseMimeType and responseSchema", async () => {
    const genai = new GoogleGenAI({ apiKey: SIM_KEY, httpOptions: { baseUrl: gw.url } });
    answer(FENCED);
    const res = await genai.models.generateContent({
      model: MODEL,
      contents: "Capital?",
      config: { responseMimeType: "application/json", responseSchema: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ["city"] } },
    });
    expect(JSON.parse(res.text!)).toEqual({ city: "Oslo", population: 700000 });
  });

  test("@anthropic-ai/sdk with output_config.format", async () => {
    const client = new Anthropic({ baseURL: `${gw.url}/msgapi`, apiKey: SIM_KEY, maxRetries: 0 });
    answer(FENCED);
    const m = await client.messages.create({ model: "claude-sonnet-5", max_tokens: 256, messages: [{ role: "user", content: "Capital?" }], output_config: { format: { type: "json_schema", schema } } });
    const text = m.content.filter((b) => b.type === "text").map((b) => (b as Anthropic.TextBlock).text).join("");
    expect(JSON.parse(text)).toEqual({ city: "Oslo", population: 700000 });
  });
});
