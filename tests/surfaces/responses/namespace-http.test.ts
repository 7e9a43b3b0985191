// Issue 16 item 4 through the real app and the simulator: Codex's namespace tools reach core's prompt, and a
// call comes back the way Codex routes it (function_call with `name` + `namespace`), streamed or not.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { startSimGateway, SIM_KEY, type SimGateway } from "../../helpers/sim-gateway";

let gw: SimGateway;
beforeAll(async () => {
  gw = await startSimGateway();
});
afterAll(() => gw.stop());
beforeEach(() => gw.sim.reset());

const spawn = { type: "function", name: "spawn_agent", description: "Start a sub-agent.", parameters: { type: "object", properties: { message: { type: "string" } }, required: ["message"] } };
const multiAgent = { type: "namespace", name: "multi_agent_v1", description: "Sub-agents.", tools: [spawn, { type: "function", name: "wait", parameters: { type: "object", properties: {} } }] };
const shell = { type: "function", name: "shell", parameters: { type: "object", properties: { command: { type: "string" } } } };

const post = (json: unknown) => gw.t.req("/v1/responses", { method: "POST", headers: gw.auth, json });
const scriptCall = () => gw.sim.enqueue({ scenario: "tool-call", params: { name: "multi_agent_v1__spawn_agent", args: '{"message":"look around"}' } });

function dataEvents(body: string): any[] {
  return body
    .split("\n")
    .filter((l) => l.startsWith("data: {"))
    .map((l) => JSON.parse(l.slice(6)));
}

describe("namespace tools on /v1/responses", () => {
  test("non-stream: core's tool list has the inner functions, the call goes out as name + namespace", async () => {
    scriptCall();
    const r = await post({ model: "core-v4-flash", input: "delegate this", tools: [shell, multiAgent] });
    expect(r.status).toBe(200);
    const body = await r.json();
    const call = body.output.find((i: any) => i.type === "function_call");
    expect(call).toMatchObject({ name: "spawn_agent", namespace: "multi_agent_v1", arguments: '{"message":"look around"}', status: "completed" });
    const prompt = gw.prompts().at(-1)!;
    expect(prompt).toContain("Tool: multi_agent_v1__spawn_agent\nDescription: Start a sub-agent.\n(Tool group multi_agent_v1: Sub-agents.)");
    expect(prompt).toContain("Tool: multi_agent_v1__wait");
    expect(prompt).toContain("Tool: shell");
  });

  test("stream: output_item.added/done and arguments.done carry the inner name; done carries the namespace", async () => {
    scriptCall();
    const r = await post({ model: "core-v4-flash", input: "delegate this", tools: [multiAgent], stream: true });
    const events = dataEvents(await r.text());
    const added = events.find((e) => e.type === "response.output_item.added" && e.item.type === "function_call");
    const argsDone = events.find((e) => e.type === "response.function_call_arguments.done");
    const done = events.find((e) => e.type === "response.output_item.done" && e.item.type === "function_call");
    const completed = events.find((e) => e.type === "response.completed");
    expect(added.item).toMatchObject({ name: "spawn_agent", namespace: "multi_agent_v1", status: "in_progress" });
    expect(argsDone.name).toBe("spawn_agent");
    expect(done.item).toMatchObject({ name: "spawn_agent", namespace: "multi_agent_v1", arguments: '{"message":"look around"}', status: "completed" });
    expect(completed.response.output.find((i: any) => i.type === "function_call")).toMatchObject({ name: "spawn_agent", namespace: "multi_agent_v1" });
  });

  test("tool_choice naming the namespaced tool forces its flat name in the prompt", async () => {
    scriptCall();
    const r = await post({ model: "core-v4-flash", input: "go", tools: [shell, multiAgent], tool_choice: { type: "function", name: "spawn_agent", namespace: "multi_agent_v1" } });
    expect(r.status).toBe(200);
    const prompt = gw.prompts().at(-1)!;
    expect(prompt).toContain("Your answer must call the tool multi_agent_v1__spawn_agent, and no other tool.");
    expect(prompt).not.toContain("Tool: shell");
  });

  test("the tool loop: Codex sends the call back with its namespace; previous_response_id keeps the flat name", async () => {
    scriptCall();
    const first = await (await post({ model: "core-v4-flash", input: "delegate", tools: [multiAgent] })).json();
    const call = first.output.find((i: any) => i.type === "function_call");
    const echoed = await post({
      model: "core-v4-flash",
      tools: [multiAgent],
      input: [
        { role: "user", content: "delegate" },
        { type: "function_call", name: call.name, namespace: call.namespace, arguments: call.arguments, call_id: call.call_id },
        { type: "function_call_output", call_id: call.call_id, output: "agent started" },
      ],
    });
    expect(echoed.status).toBe(200);
    expect(gw.prompts().at(-1)!).toContain('<|svcml|invoke name="multi_agent_v1__spawn_agent">');
    const chained = await post({ model: "core-v4-flash", tools: [multiAgent], previous_response_id: first.id, input: [{ type: "function_call_output", call_id: call.call_id, output: "ok" }] });
    expect(chained.status).toBe(200);
    expect(gw.prompts().at(-1)!).toContain('<|svcml|invoke name="multi_agent_v1__spawn_agent">');
  });
});

describe("openai SDK", () => {
  test("responses.create with a NamespaceTool returns a ResponseFunctionToolCall with namespace", async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: SIM_KEY, maxRetries: 0 });
    scriptCall();
    const res = await client.responses.create({ model: "core-v4-flash", input: "delegate", tools: [multiAgent as OpenAI.Responses.NamespaceTool] });
    const call = res.output.find((i) => i.type === "function_call") as OpenAI.Responses.ResponseFunctionToolCall;
    expect(call.name).toBe("spawn_agent");
    expect(call.namespace).toBe("multi_agent_v1");
    scriptCall();
    const stream = client.responses.stream({ model: "core-v4-flash", input: "delegate", tools: [multiAgent as OpenAI.Responses.NamespaceTool] });
    const final = await stream.finalResponse();
    expect(final.output.find((i) => i.type === "function_call")).toMatchObject({ name: "spawn_agent", namespace: "multi_agent_v1" });
  });
});
