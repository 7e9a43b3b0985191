// Issue 16: the Vercel AI SDK (`ai` with its openai, anthropic and google providers, pinned in
// tests/clients/package.json) against the compiled gateway and the simulator, on all four protocols:
// chat completions, responses, messages and generate-content; a plain answer, a streamed answer and a
// tool loop whose tool result reaches core's next prompt.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CLIENTS_DIR, announceSkip, clientsInstalled } from "./helpers/paths";
import { API_KEY, startStack, toolResults, type Stack } from "./helpers/stack";

announceSkip("the Vercel AI SDK suite");

// Loaded at run time from tests/clients/node_modules, so that type checking and a plain `bun test` work
// without the pinned clients installed.
const load = async (name: string): Promise<any> => import(Bun.resolveSync(name, CLIENTS_DIR));

let stack: Stack;
let ai: any;
const models: Record<string, () => unknown> = {};

beforeAll(async () => {
  if (!clientsInstalled) return;
  stack = await startStack(2);
  ai = await load("ai");
  const { createOpenAI } = await load("@ai-sdk/openai");
  const { createAnthropic } = await load("@ai-sdk/anthropic");
  const { createGoogleGenerativeAI } = await load("@ai-sdk/google");
  const gw = stack.gw.url;
  const openai = createOpenAI({ baseURL: `${gw}/v1`, apiKey: API_KEY });
  const anthropic = createAnthropic({ baseURL: `${gw}/msgapi/v1`, apiKey: API_KEY });
  const google = createGoogleGenerativeAI({ baseURL: `${gw}/v1beta`, apiKey: API_KEY });
  models.chat = () => openai.chat("core-v4-flash");
  models.responses = () => openai.responses("core-v4-flash");
  models.messages = () => anthropic("core-v4-flash");
  models.generate = () => google("core-v4-flash");
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

const weather = () =>
  ai.tool({
    description: "Current weather for a city",
    inputSchema: ai.jsonSchema({ type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false }),
    execute: async ({ city }: { city: string }) => ({ city, forecast: `sunny svc-ai-tool-${city}` }),
  });

describe.skipIf(!clientsInstalled)("Vercel AI SDK", () => {
  for (const protocol of ["chat", "responses", "messages", "generate"]) {
    test(`${protocol}: plain answer`, async () => {
      const r = await ai.generateText({ model: models[protocol]!(), prompt: `Plain question on ${protocol}`, maxOutputTokens: 1024, maxRetries: 0 });
      expect(r.text).toContain(`Plain question on ${protocol}`);
      expect(r.finishReason).toBe("stop");
    });

    test(`${protocol}: streamed answer`, async () => {
      const r = ai.streamText({ model: models[protocol]!(), prompt: `Streamed question on ${protocol}`, maxOutputTokens: 1024, maxRetries: 0 });
      let text = "";
      for await (const delta of r.textStream) text += delta;
      expect(text).toContain(`Streamed question on ${protocol}`);
      expect(await r.finishReason).toBe("stop");
    });

    test(`${protocol}: tool loop (call, local execution, result back to core, final answer)`, async () => {
      const r = await ai.generateText({
        model: models[protocol]!(),
        prompt: `Use the get_weather tool for Paris (${protocol}).`,
        tools: { get_weather: weather() },
        stopWhen: ai.isStepCount(4),
        maxOutputTokens: 1024,
        maxRetries: 0,
      });
      expect(r.steps.length).toBeGreaterThanOrEqual(2);
      expect(r.steps[0].toolCalls.map((c: { toolName: string }) => c.toolName)).toEqual(["get_weather"]);
      expect(r.text).toContain("The tool returned");
      expect(stack.prompts().flatMap(toolResults).some((t) => t.includes("svc-ai-tool-Paris"))).toBe(true);
    });
  }
});
