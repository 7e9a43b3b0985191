// Issue 29: the OpenAI Agents SDK for JavaScript (`@openai/agents`, pinned in tests/clients/package.json)
// against the compiled gateway and the simulator: an agent with a function tool over chat completions
// (OpenAIChatCompletionsModel) and over responses (OpenAIResponsesModel), run plain and streamed. The SDK
// calls the tool, sends its result back, and the tool's output reaches core's next prompt. Tracing is off, so
// the SDK talks to nothing but the gateway.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { dirname } from "node:path";
import { CLIENTS_DIR, announceSkip, clientsInstalled } from "./helpers/paths";
import { API_KEY, startStack, toolResults, type Stack } from "./helpers/stack";

announceSkip("the OpenAI Agents SDK suite");

// Loaded at run time from tests/clients/node_modules (type checking and a plain `bun test` work without it).
const load = async (name: string, from = CLIENTS_DIR): Promise<any> => import(Bun.resolveSync(name, from));

let stack: Stack;
let agents: any;
let zod: any;
let client: unknown;

beforeAll(async () => {
  if (!clientsInstalled) return;
  stack = await startStack(2);
  agents = await load("@openai/agents");
  zod = await load("zod");
  // The `openai` client the SDK itself depends on.
  const OpenAI = (await load("openai", dirname(Bun.resolveSync("@openai/agents-openai", CLIENTS_DIR)))).default;
  client = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: API_KEY, maxRetries: 0 });
  agents.setTracingDisabled(true);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

const MODELS: Record<string, () => unknown> = {
  "chat completions": () => new agents.OpenAIChatCompletionsModel(client, "core-v4-flash"),
  responses: () => new agents.OpenAIResponsesModel(client, "core-v4-flash"),
};

/** `marker` goes into every tool result, so each test finds its own in core's prompts. */
function weatherAgent(api: string, calls: string[], marker: string) {
  const getWeather = agents.tool({
    name: "get_weather",
    description: "Current weather for a city",
    parameters: zod.z.object({ city: zod.z.string() }),
    execute: async ({ city }: { city: string }) => {
      calls.push(city);
      return `sunny in ${city} ${marker}`;
    },
  });
  return new agents.Agent({ name: "Weather", instructions: "Answer weather questions with the tool.", tools: [getWeather], model: MODELS[api]!() });
}

/** The tool results core received that carry this run's marker. */
const resultsWith = (marker: string) => stack.prompts().flatMap(toolResults).filter((t) => t.includes(marker));

/** Text that 1.7 would type if the schema did not say string: pretty JSON with a 20-digit integer and `1.0`. */
const NOTE = '{\n  "big": 12345678901234567890,\n  "ratio": 1.0,\n  "list": [1, 2, 3]\n}\n';

/** Core's call of save_note as the gateway's tool instructions ask for it: the string in CDATA. */
const SAVE_NOTE_CALL = [
  "<|svcml|tool_calls>",
  '  <|svcml|invoke name="save_note">',
  `    <|svcml|parameter name="text"><![CDATA[${NOTE}]]></|svcml|parameter>`,
  "  </|svcml|invoke>",
  "</|svcml|tool_calls>",
].join("\n");

describe.skipIf(!clientsInstalled)("OpenAI Agents SDK (JS)", () => {
  for (const api of Object.keys(MODELS)) {
    const tag = api.replace(/\W/g, "");
    test(`${api}: function tool, its result back to core, final answer`, async () => {
      const calls: string[] = [];
      const marker = `svc-agents-${tag}`;
      const result = await agents.run(weatherAgent(api, calls, marker), "Use the get_weather tool for Paris.", { maxTurns: 4 });
      expect(calls).toEqual([expect.any(String)]);
      expect(result.newItems.filter((i: { type: string }) => i.type === "tool_call_item")).toHaveLength(1);
      expect(resultsWith(marker)).toHaveLength(1);
      expect(String(result.finalOutput)).toContain("The tool returned");
      expect(String(result.finalOutput)).toContain(marker);
    });

    test(`${api}: a string argument reaches the function tool as core wrote it`, async () => {
      const marker = `svc-agents-note-${tag}`;
      const notes: string[] = [];
      const saveNote = agents.tool({
        name: "save_note",
        description: "Saves a note verbatim",
        parameters: zod.z.object({ text: zod.z.string() }),
        execute: async ({ text }: { text: string }) => {
          notes.push(text);
          return `saved ${marker}`;
        },
      });
      stack.sim.enqueue({ scenario: "no-thinking", params: { answer: SAVE_NOTE_CALL }, match: { prompt_includes: [marker] } });
      const agent = new agents.Agent({ name: "Notes", instructions: "Save notes.", tools: [saveNote], model: MODELS[api]!() });
      const result = await agents.run(agent, `Save the note. ${marker}`, { maxTurns: 4 });
      expect(notes).toEqual([NOTE]);
      expect(String(result.finalOutput)).toContain(marker);
    });

    test(`${api}: streamed run with the function tool`, async () => {
      const calls: string[] = [];
      const marker = `svc-agents-stream-${tag}`;
      const result = await agents.run(weatherAgent(api, calls, marker), "Use the get_weather tool for Paris.", { maxTurns: 4, stream: true });
      let text = "";
      for await (const delta of result.toTextStream()) text += delta;
      await result.completed;
      expect(calls).toHaveLength(1);
      expect(resultsWith(marker)).toHaveLength(1);
      expect(text).toContain("The tool returned");
      expect(text).toContain(marker);
      expect(String(result.finalOutput)).toBe(text);
    });
  }
});
