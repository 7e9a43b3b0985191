// Issue 16 item 4: Codex's namespace tools offered to core under flat names and split back for the client.
import { describe, expect, test } from "bun:test";
import { flatNameOf, flattenNamespaceTools, flattenToolChoice, qualifiedToolName, toolRefOf } from "../../../src/surfaces/responses/namespace-tools";
import { normalizeResponses } from "../../../src/surfaces/responses/normalize";
import { renderResponse, type ResponseMeta } from "../../../src/surfaces/responses/render";
import type { TurnResult } from "../../../src/pipeline/types";
import { gatewayErrorOf } from "../../helpers/errors";

const spawn = { type: "function", name: "spawn_agent", description: "Start a sub-agent.", parameters: { type: "object", properties: { message: { type: "string" } }, required: ["message"] } };
const wait = { type: "function", name: "wait", parameters: { type: "object", properties: {} } };
const multiAgent = { type: "namespace", name: "multi_agent_v1", description: "Sub-agents.", tools: [spawn, wait, { type: "custom", name: "freeform" }] };
const shell = { type: "function", name: "shell", parameters: { type: "object" } };

describe("flat names", () => {
  test("Codex's canonical flat name: __ between, stray underscores at the join trimmed", () => {
    expect(qualifiedToolName("multi_agent_v1", "spawn_agent")).toBe("multi_agent_v1__spawn_agent");
    expect(qualifiedToolName("mcp__fs__", "_read")).toBe("mcp__fs__read");
    expect(flatNameOf("wait", "multi_agent_v1")).toBe("multi_agent_v1__wait");
    expect(flatNameOf("shell", undefined)).toBe("shell");
    expect(flatNameOf("shell", "")).toBe("shell");
  });

  test("inner functions become flat function tools with the group's description; a custom tool gets one string `input`", () => {
    const { tools, names } = flattenNamespaceTools([shell, multiAgent, { type: "web_search" }]);
    expect(tools.slice(0, 2)).toEqual([
      { type: "function", name: "multi_agent_v1__spawn_agent", description: "Start a sub-agent.\n(Tool group multi_agent_v1: Sub-agents.)", parameters: spawn.parameters },
      { type: "function", name: "multi_agent_v1__wait", description: "(Tool group multi_agent_v1: Sub-agents.)", parameters: wait.parameters },
    ]);
    expect(tools[2]).toMatchObject({ type: "function", name: "multi_agent_v1__freeform", parameters: { type: "object", required: ["input"], properties: { input: { type: "string" } } } });
    expect([...names]).toEqual([
      ["multi_agent_v1__spawn_agent", { namespace: "multi_agent_v1", name: "spawn_agent" }],
      ["multi_agent_v1__wait", { namespace: "multi_agent_v1", name: "wait" }],
      ["multi_agent_v1__freeform", { namespace: "multi_agent_v1", name: "freeform", custom: true }],
    ]);
  });

  test("malformed namespaces are skipped; a flat name a top-level function already has stays with it", () => {
    const taken = { type: "function", name: "ns__a" };
    const { tools, names } = flattenNamespaceTools([
      taken,
      { type: "namespace", name: "ns", tools: [{ type: "function", name: "a" }, { type: "function", name: "b" }, { type: "function", name: "b" }, "x", { type: "function" }] },
      { type: "namespace", tools: [spawn] },
      { type: "namespace", name: "empty" },
    ]);
    expect(tools.map((t) => t.name)).toEqual(["ns__b"]);
    expect(toolRefOf(names, "ns__a")).toEqual({ name: "ns__a" });
    expect(toolRefOf(names, "ns__b")).toEqual({ name: "b", namespace: "ns" });
    expect(flattenNamespaceTools(undefined).tools).toEqual([]);
  });
});

describe("tool_choice naming a namespaced tool", () => {
  const raw = [shell, multiAgent];
  const { names } = flattenNamespaceTools(raw);
  test("name + namespace, the bare inner name when unambiguous, the flat name itself", () => {
    expect(flattenToolChoice({ type: "function", name: "spawn_agent", namespace: "multi_agent_v1" }, raw, names)).toEqual({ type: "function", name: "multi_agent_v1__spawn_agent", namespace: "multi_agent_v1" });
    expect(flattenToolChoice({ type: "function", name: "wait" }, raw, names)).toEqual({ type: "function", name: "multi_agent_v1__wait" });
    expect(flattenToolChoice({ type: "function", name: "multi_agent_v1__wait" }, raw, names)).toEqual({ type: "function", name: "multi_agent_v1__wait" });
    expect(flattenToolChoice({ type: "function", name: "shell" }, raw, names)).toEqual({ type: "function", name: "shell" });
    expect(flattenToolChoice("required", raw, names)).toBe("required");
  });

  test("an inner name two namespaces share stays as given (and is refused as undeclared)", () => {
    const two = [multiAgent, { ...multiAgent, name: "other" }];
    expect(flattenToolChoice({ type: "function", name: "wait" }, two, flattenNamespaceTools(two).names)).toEqual({ type: "function", name: "wait" });
    const err = gatewayErrorOf(() => normalizeResponses({ model: "m", input: "q", tools: two, tool_choice: { type: "function", name: "wait" } }, { wideInput: true }));
    expect([err.status, err.param]).toEqual([400, "tool_choice.name"]);
  });

  test("allowed_tools: namespaced entries and a whole namespace", () => {
    const choice = { type: "allowed_tools", mode: "required", tools: [{ type: "function", name: "spawn_agent", namespace: "multi_agent_v1" }, { type: "namespace", name: "multi_agent_v1" }, { type: "function", name: "shell" }] };
    const r = normalizeResponses({ model: "m", input: "q", tools: raw, tool_choice: choice }, { wideInput: true });
    expect(r.toolChoice).toEqual({ kind: "allowed", names: ["multi_agent_v1__spawn_agent", "multi_agent_v1__spawn_agent", "multi_agent_v1__wait", "multi_agent_v1__freeform", "shell"], required: true });
  });
});

describe("responses normaliser with namespace tools", () => {
  test("core gets the inner functions; a history call with its namespace is written under the flat name", () => {
    const r = normalizeResponses(
      {
        model: "m",
        tools: [shell, multiAgent],
        tool_choice: { type: "function", name: "spawn_agent", namespace: "multi_agent_v1" },
        input: [
          { role: "user", content: "delegate" },
          { type: "function_call", name: "spawn_agent", namespace: "multi_agent_v1", arguments: '{"message":"go"}', call_id: "c1" },
          { type: "function_call_output", call_id: "c1", output: "agent-1" },
        ],
      },
      { wideInput: true },
    );
    expect(r.tools.map((t) => t.name)).toEqual(["shell", "multi_agent_v1__spawn_agent", "multi_agent_v1__wait", "multi_agent_v1__freeform"]);
    expect(r.toolChoice).toEqual({ kind: "forced", name: "multi_agent_v1__spawn_agent" });
    expect(r.turns[1]!.toolCalls).toEqual([{ name: "multi_agent_v1__spawn_agent", arguments: '{"message":"go"}', id: "c1" }]);
    expect(r.turns[2]!.toolResultOf).toEqual({ callId: "c1", name: "multi_agent_v1__spawn_agent" });
  });
});

describe("responses renderer", () => {
  test("a call to a flat namespaced name goes out as name + namespace; other calls carry no namespace", () => {
    const { names } = flattenNamespaceTools([shell, multiAgent]);
    const meta: ResponseMeta = {
      id: "resp_1",
      createdAt: 1,
      model: "m",
      instructions: null,
      tools: [],
      toolChoice: "auto",
      previousResponseId: null,
      store: false,
      metadata: {},
      exposeThinking: false,
      requireCall: false,
      toolRef: (flat) => toolRefOf(names, flat),
    };
    const call = (index: number, name: string) => ({ index, id: `call_${index}`, name, arguments: "{}", finished: true });
    const result: TurnResult = {
      thinking: "",
      text: "",
      parts: [{ type: "call", call: call(0, "multi_agent_v1__spawn_agent") }, { type: "call", call: call(1, "shell") }],
      calls: [call(0, "multi_agent_v1__spawn_agent"), call(1, "shell")],
      outcome: "tool_calls",
      usage: { promptTokens: 1, completionTokens: 1, reasoningTokens: 0, totalTokens: 2 },
    };
    const out = renderResponse(meta, result).output;
    expect(out[0]).toMatchObject({ type: "function_call", name: "spawn_agent", namespace: "multi_agent_v1", call_id: "call_0" });
    expect(out[1]).toMatchObject({ type: "function_call", name: "shell" });
    expect(out[1]).not.toHaveProperty("namespace");
  });
});
