import { describe, expect, test } from "bun:test";
import { chatToolChoice, generateToolChoice, messagesToolChoice, responsesToolChoice } from "../../src/prompt/tool-choice";
import { GatewayError } from "../../src/util/gateway-error";
import type { ToolDef } from "../../src/pipeline/types";

const tools: ToolDef[] = [{ name: "a" }, { name: "b" }, { name: "c" }];

function error400(fn: () => unknown): GatewayError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(GatewayError);
    expect((e as GatewayError).status).toBe(400);
    expect((e as GatewayError).code).toBe("invalid_request");
    return e as GatewayError;
  }
  throw new Error("expected a 400");
}

describe("chat tool_choice (§3.9)", () => {
  test("strings, absent, forced and allowed map to the internal values", () => {
    expect(chatToolChoice({}, tools).toolChoice).toEqual({ kind: "auto" });
    expect(chatToolChoice({ tool_choice: "none" }, []).toolChoice).toEqual({ kind: "none" });
    expect(chatToolChoice({ tool_choice: "required" }, tools).toolChoice).toEqual({ kind: "required" });
    expect(chatToolChoice({ tool_choice: { type: "function", function: { name: "b" } } }, tools).toolChoice).toEqual({ kind: "forced", name: "b" });
    expect(
      chatToolChoice({ tool_choice: { type: "allowed_tools", allowed_tools: { mode: "required", tools: [{ type: "function", function: { name: "a" } }, { type: "function", function: { name: "c" } }] } } }, tools)
        .toolChoice,
    ).toEqual({ kind: "allowed", names: ["a", "c"], required: true });
  });

  test("parallel_tool_calls false is single", () => {
    expect(chatToolChoice({ parallel_tool_calls: false }, tools).singleCall).toBe(true);
    expect(chatToolChoice({ parallel_tool_calls: true }, tools).singleCall).toBe(false);
  });

  test("errors: unknown value, undeclared name, required without tools, empty allowed set", () => {
    expect(error400(() => chatToolChoice({ tool_choice: "sometimes" }, tools)).param).toBe("tool_choice");
    expect(error400(() => chatToolChoice({ tool_choice: { type: "function", function: { name: "zzz" } } }, tools)).param).toBe("tool_choice.function.name");
    error400(() => chatToolChoice({ tool_choice: "required" }, []));
    error400(() => chatToolChoice({ tool_choice: { type: "function", function: { name: "a" } } }, []));
    error400(() => chatToolChoice({ tool_choice: { type: "allowed_tools", allowed_tools: { mode: "auto", tools: [] } } }, tools));
    error400(() => chatToolChoice({ tool_choice: { type: "allowed_tools", allowed_tools: { mode: "sometimes", tools: [{ type: "function", function: { name: "a" } }] } } }, tools));
  });
});

describe("responses tool_choice (§3.9)", () => {
  test("the flat forms", () => {
    expect(responsesToolChoice({ tool_choice: { type: "function", name: "a" } }, tools).toolChoice).toEqual({ kind: "forced", name: "a" });
    expect(responsesToolChoice({ tool_choice: { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: "b" }] } }, tools).toolChoice).toEqual({
      kind: "allowed",
      names: ["b"],
      required: false,
    });
    expect(responsesToolChoice({ parallel_tool_calls: false }, tools).singleCall).toBe(true);
    error400(() => responsesToolChoice({ tool_choice: { type: "web_search_preview" } }, tools));
  });
});

describe("messages tool_choice (§3.9)", () => {
  test("auto, none, any, tool and disable_parallel_tool_use", () => {
    expect(messagesToolChoice({}, tools)).toEqual({ toolChoice: { kind: "auto" }, singleCall: false });
    expect(messagesToolChoice({ tool_choice: { type: "none" } }, tools).toolChoice).toEqual({ kind: "none" });
    expect(messagesToolChoice({ tool_choice: { type: "any", disable_parallel_tool_use: true } }, tools)).toEqual({ toolChoice: { kind: "required" }, singleCall: true });
    expect(messagesToolChoice({ tool_choice: { type: "tool", name: "c" } }, tools).toolChoice).toEqual({ kind: "forced", name: "c" });
    expect(error400(() => messagesToolChoice({ tool_choice: { type: "tool", name: "x" } }, tools)).param).toBe("tool_choice.name");
    expect(error400(() => messagesToolChoice({ tool_choice: { type: "maybe" } }, tools)).param).toBe("tool_choice.type");
    error400(() => messagesToolChoice({ tool_choice: { type: "any" } }, []));
  });
});

describe("generate-content tool_choice (§3.9)", () => {
  const cfg = (c: unknown) => ({ toolConfig: { functionCallingConfig: c } });
  test("modes and allowedFunctionNames", () => {
    expect(generateToolChoice({}, tools).toolChoice).toEqual({ kind: "auto" });
    expect(generateToolChoice(cfg({ mode: "VALIDATED" }), tools).toolChoice).toEqual({ kind: "auto" });
    expect(generateToolChoice(cfg({ mode: "NONE" }), tools).toolChoice).toEqual({ kind: "none" });
    expect(generateToolChoice(cfg({ mode: "ANY" }), tools).toolChoice).toEqual({ kind: "required" });
    expect(generateToolChoice(cfg({ mode: "ANY", allowedFunctionNames: ["b"] }), tools).toolChoice).toEqual({ kind: "forced", name: "b" });
    expect(generateToolChoice(cfg({ mode: "ANY", allowedFunctionNames: ["a", "b"] }), tools).toolChoice).toEqual({ kind: "allowed", names: ["a", "b"], required: true });
    expect(generateToolChoice(cfg({ mode: "ANY" }), tools).singleCall).toBe(false);
  });
  test("errors", () => {
    expect(error400(() => generateToolChoice(cfg({ mode: "SOMETIMES" }), tools)).param).toBe("toolConfig.functionCallingConfig.mode");
    error400(() => generateToolChoice(cfg({ mode: "ANY", allowedFunctionNames: ["zz"] }), tools));
    error400(() => generateToolChoice(cfg({ mode: "ANY" }), []));
  });
});
