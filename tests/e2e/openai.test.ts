// End to end: the compiled binary against the core simulator, driven by the official `openai` SDK with
// nothing but a base URL and a key.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI, { toFile } from "openai";
import { startBinary, type RunningBinary } from "../helpers/binary";
import { startCoreSimulator, type CoreSimulator } from "../../src/sim/index";

let sim: CoreSimulator;
let gw: RunningBinary;
let client: OpenAI;

const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  {
    type: "function",
    function: {
      name: "get_weather",
      description: "Current weather for a city",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  },
];

beforeAll(async () => {
  sim = await startCoreSimulator({ difficulty: 1000, accounts: [{ email: "a@sim.test", password: "pw-a" }, { email: "b@sim.test", password: "pw-b" }] });
  gw = await startBinary({
    config: { keys: ["sk-e2e"], accounts: [{ email: "a@sim.test", password: "pw-a" }, { email: "b@sim.test", password: "pw-b" }], embeddings: { provider: "builtin" } },
    env: { SVC_CORE_BASE_URL: sim.url },
  });
  client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: "sk-e2e", maxRetries: 0 });
}, 120_000);

afterAll(async () => {
  await gw?.stop();
  await sim?.stop();
});

async function queueStatus() {
  const r = await fetch(`${gw.url}/admin/queue/status`, { headers: { Authorization: `Bearer ${gw.adminKey}` } });
  return r.json();
}

describe("openai SDK", () => {
  test("chat completion, plain", async () => {
    const r = await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "Hello gateway" }] });
    expect(r.object).toBe("chat.completion");
    expect(r.model).toBe("gpt-4o");
    expect(r.choices[0]!.message.content).toContain("Hello gateway");
    expect(r.choices[0]!.finish_reason).toBe("stop");
    expect(r.usage!.total_tokens).toBeGreaterThan(0);
  });

  test("chat completion, streaming, usage in the last chunk", async () => {
    const stream = await client.chat.completions.create({ model: "core-v4-flash", stream: true, messages: [{ role: "user", content: "Stream please" }] });
    let text = "";
    let reasoning = "";
    let usage: unknown = null;
    let finish = "";
    for await (const chunk of stream) {
      const d = chunk.choices[0]?.delta as { content?: string; reasoning_content?: string } | undefined;
      text += d?.content ?? "";
      reasoning += d?.reasoning_content ?? "";
      if (chunk.choices[0]?.finish_reason) finish = chunk.choices[0].finish_reason;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toContain("Stream please");
    expect(reasoning.length).toBeGreaterThan(0);
    expect(finish).toBe("stop");
    expect(usage).not.toBeNull();
  });

  test("a full tool loop, non-stream: tool call, tool result, final answer", async () => {
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: "user", content: "Use the get_weather tool for my city" }];
    const first = await client.chat.completions.create({ model: "gpt-4o", messages, tools });
    const choice = first.choices[0]!;
    expect(choice.finish_reason).toBe("tool_calls");
    expect(choice.message.content).toBeNull();
    const call = choice.message.tool_calls![0]! as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
    expect(call.function.name).toBe("get_weather");
    expect(call.id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(JSON.parse(call.function.arguments)).toHaveProperty("city");
    messages.push(choice.message, { role: "tool", tool_call_id: call.id, content: "Sunny, 21 degrees" });
    const second = await client.chat.completions.create({ model: "gpt-4o", messages, tools });
    expect(second.choices[0]!.finish_reason).toBe("stop");
    expect(second.choices[0]!.message.content).toContain("Sunny, 21 degrees");
  });

  test("a full tool loop, streaming: the call arrives as incremental tool_calls deltas", async () => {
    const stream = await client.chat.completions.create({ model: "gpt-4o", stream: true, tools, messages: [{ role: "user", content: "call get_weather please" }] });
    let name = "";
    let args = "";
    let id = "";
    let finish = "";
    let content = "";
    for await (const chunk of stream) {
      const d = chunk.choices[0]?.delta;
      content += d?.content ?? "";
      for (const tc of d?.tool_calls ?? []) {
        if (tc.id) id = tc.id;
        name += tc.function?.name ?? "";
        args += tc.function?.arguments ?? "";
      }
      if (chunk.choices[0]?.finish_reason) finish = chunk.choices[0].finish_reason;
    }
    expect(name).toBe("get_weather");
    expect(JSON.parse(args)).toHaveProperty("city");
    expect(id).toMatch(/^call_/);
    expect(finish).toBe("tool_calls");
    expect(content).not.toContain("svcml");
    const follow = await client.chat.completions.create({
      model: "gpt-4o",
      stream: true,
      tools,
      messages: [
        { role: "user", content: "call get_weather please" },
        { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name, arguments: args } }] },
        { role: "tool", tool_call_id: id, content: "Rain" },
      ],
    });
    let final = "";
    for await (const chunk of follow) final += chunk.choices[0]?.delta?.content ?? "";
    expect(final).toContain("Rain");
  });

  test("responses: create, retrieve, stream", async () => {
    const r = await client.responses.create({ model: "gpt-5", input: "Hello responses" });
    expect(r.id).toMatch(/^resp_[0-9a-f]{32}$/);
    expect(r.status).toBe("completed");
    expect(r.output_text).toContain("Hello responses");
    const again = await client.responses.retrieve(r.id);
    expect(again.id).toBe(r.id);
    const stream = await client.responses.create({ model: "gpt-5", input: "Stream responses", stream: true });
    const types: string[] = [];
    let text = "";
    for await (const ev of stream) {
      types.push(ev.type);
      if (ev.type === "response.output_text.delta") text += ev.delta;
    }
    expect(types[0]).toBe("response.created");
    expect(types[types.length - 1]).toBe("response.completed");
    expect(text).toContain("Stream responses");
  });

  test("responses: tool_choice required without a call is 422 tool_choice_violation", async () => {
    const err = await client.responses
      .create({ model: "gpt-5", input: "just chat", tools: [{ type: "function", name: "get_weather", parameters: { type: "object", properties: {} }, strict: false }], tool_choice: "required" })
      .catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.UnprocessableEntityError);
    expect(err.code).toBe("tool_choice_violation");
  });

  test("embeddings (the SDK asks for base64)", async () => {
    const r = await client.embeddings.create({ model: "text-embedding-3-small", input: ["the cat sat", "the cat sat", "quantum chromodynamics"] });
    expect(r.data).toHaveLength(3);
    const [a, b, c] = r.data.map((d) => d.embedding as number[]);
    const dot = (x: number[], y: number[]) => x.reduce((s, v, i) => s + v * y[i]!, 0);
    expect(dot(a!, b!)).toBeCloseTo(1, 4);
    expect(dot(a!, c!)).toBeLessThan(0.5);
  });

  test("file upload returns the file object with the account that received it", async () => {
    const f = await client.files.create({ file: await toFile(Buffer.from("hello file"), "notes.txt"), purpose: "assistants" });
    expect(f.id).toMatch(/^file-/);
    expect(f.bytes).toBe(10);
    expect(f.filename).toBe("notes.txt");
    expect((f as unknown as { account_id: string }).account_id).toMatch(/@sim\.test$/);
  });

  test("a bad key in the chat shape: 401 for a rejected pass-through token", async () => {
    const bad = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: "not-a-key", maxRetries: 0 });
    const err = await bad.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "x" }] }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(err.code).toBe("invalid_upstream_token");
  });

  test("aborting a stream mid-way frees the account slot", async () => {
    const ac = new AbortController();
    const stream = await client.chat.completions.create(
      { model: "gpt-4o", stream: true, messages: [{ role: "user", content: "[[sim:slow-tokens delay_ms=200]] talk slowly" }] },
      { signal: ac.signal },
    );
    let chunks = 0;
    try {
      for await (const _ of stream) {
        if (++chunks === 2) ac.abort();
      }
    } catch {}
    for (let i = 0; i < 50; i++) {
      const s = await queueStatus();
      if (s.in_use === 0 && s.waiting === 0) break;
      await Bun.sleep(100);
    }
    expect(await queueStatus()).toMatchObject({ in_use: 0, waiting: 0 });
  });
});
