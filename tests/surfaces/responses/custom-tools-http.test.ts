// Custom (freeform) tools and `additional_tools` input items on /v1/responses (issue 16): Codex's default model
// sends no `tools`; its code-mode `exec` tool (a custom tool inside the `functions` namespace) comes in an
// `additional_tools` input item, and a call to it must go back as a custom_tool_call with a raw `input`.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startSimGateway, SIM_KEY, type SimGateway } from "../../helpers/sim-gateway";

let gw: SimGateway;
beforeAll(async () => {
  gw = await startSimGateway();
});
afterAll(() => gw.stop());
beforeEach(() => gw.sim.reset());

const exec = { type: "custom", name: "exec", description: "Run JavaScript code.", format: { type: "grammar", syntax: "lark", definition: "start: /[\\s\\S]+/" } };
const additional = { type: "additional_tools", role: "developer", tools: [{ type: "namespace", name: "functions", description: "", tools: [exec] }] };
const code = 'text((await tools.exec_command({ cmd: "echo hi" })).output)';
const post = (json: unknown) => gw.t.req("/v1/responses", { method: "POST", headers: gw.auth, json });
const scriptCall = () => gw.sim.enqueue({ scenario: "tool-call", params: { name: "functions__exec", args: JSON.stringify({ input: code }) } });

function dataEvents(body: string): any[] {
  return body
    .split("\n")
    .filter((l) => l.startsWith("data: {"))
    .map((l) => JSON.parse(l.slice(6)));
}

describe("custom tools from additional_tools", () => {
  test("core is offered the custom tool with one string parameter, and the call goes out as a custom_tool_call", async () => {
    scriptCall();
    const r = await post({ model: "core-v4-flash", input: [additional, { type: "message", role: "user", content: [{ type: "input_text", text: "run it" }] }] });
    expect(r.status).toBe(200);
    const body = await r.json();
    const call = body.output.find((i: any) => i.type === "custom_tool_call");
    expect(call).toMatchObject({ name: "exec", namespace: "functions", input: code, status: "completed" });
    expect(call.call_id).toMatch(/^call_/);
    expect(body.output.some((i: any) => i.type === "function_call")).toBe(false);
    const prompt = gw.prompts().at(-1)!;
    expect(prompt).toContain("Tool: functions__exec");
    expect(prompt).toContain("raw input as plain text");
  });

  test("stream: input delta and done events carry the raw input, the done item is a custom_tool_call", async () => {
    scriptCall();
    const r = await post({ model: "core-v4-flash", stream: true, input: [additional, { type: "message", role: "user", content: "run it" }] });
    const events = dataEvents(await r.text());
    const done = events.find((e) => e.type === "response.custom_tool_call_input.done");
    expect(done.input).toBe(code);
    expect(events.filter((e) => e.type === "response.custom_tool_call_input.delta").map((e) => e.delta).join("")).toBe(code);
    expect(events.some((e) => e.type === "response.function_call_arguments.delta")).toBe(false);
    const item = events.find((e) => e.type === "response.output_item.done" && e.item.type === "custom_tool_call").item;
    expect(item).toMatchObject({ name: "exec", namespace: "functions", input: code });
  });

  test("history: custom_tool_call and custom_tool_call_output reach core's prompt as a call and its result", async () => {
    const r = await post({
      model: "core-v4-flash",
      input: [
        additional,
        { type: "message", role: "user", content: "run it" },
        { type: "custom_tool_call", call_id: "call_1", name: "exec", namespace: "functions", input: code },
        { type: "custom_tool_call_output", call_id: "call_1", output: "hi-from-the-shell" },
      ],
    });
    expect(r.status).toBe(200);
    const prompt = gw.prompts().at(-1)!;
    expect(prompt).toContain('invoke name="functions__exec"');
    expect(prompt).toContain("echo hi");
    expect(prompt).toContain("hi-from-the-shell");
  });

  test("a top-level custom tool keeps its name and gets a custom_tool_call back", async () => {
    gw.sim.enqueue({ scenario: "tool-call", params: { name: "apply_patch", args: JSON.stringify({ input: "*** Begin Patch\n*** End Patch" }) } });
    const r = await post({ model: "core-v4-flash", input: "patch it", tools: [{ type: "custom", name: "apply_patch", description: "Edit files." }] });
    const call = (await r.json()).output.find((i: any) => i.type === "custom_tool_call");
    expect(call).toMatchObject({ name: "apply_patch", input: "*** Begin Patch\n*** End Patch" });
    expect(call.namespace).toBeUndefined();
    expect(SIM_KEY).toBeTruthy();
  });
});

describe("bodiless methods with a JSON Content-Type", () => {
  test("DELETE /v1/responses/{id} with Content-Type: application/json and no body is not a JSON error", async () => {
    const r = await gw.t.req("/v1/responses/resp_missing", { method: "DELETE", headers: { ...gw.auth, "content-type": "application/json" } });
    expect(r.status).toBe(404);
    expect((await r.json()).error.code).toBe("not_found");
  });
});
