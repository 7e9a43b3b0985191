// The JSON output block and its place in core's prompt (issue 16 item 5).
import { describe, expect, test } from "bun:test";
import { buildPrompt } from "../../src/prompt/build";
import { JSON_OUTPUT_HEADER, jsonOutputBlock, jsonRetryText } from "../../src/prompt/json-instruction";
import { MARKER_END_INSTRUCTIONS, MARKER_USER } from "../../src/prompt/markers";
import type { TurnRequest } from "../../src/pipeline/types";

const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };

function request(over: Partial<TurnRequest> = {}): TurnRequest {
  return {
    surface: "chat",
    requestedModel: "m",
    model: "m",
    turns: [{ role: "system", text: "Be brief." }, { role: "user", text: "Where?" }],
    tools: [],
    toolChoice: { kind: "auto" },
    singleCall: false,
    thinking: false,
    exposeThinking: false,
    highEffort: false,
    stream: false,
    files: [],
    fileIds: [],
    passThrough: {},
    ...over,
  };
}

describe("jsonOutputBlock", () => {
  test("nothing without JSON output", () => {
    expect(jsonOutputBlock(undefined, true)).toBe("");
  });

  test("json_object, any JSON value, and a named schema in compact JSON", () => {
    expect(jsonOutputBlock({ kind: "json_object" }, false)).toContain("Your final answer is one JSON object.");
    expect(jsonOutputBlock({ kind: "json" }, false)).toContain("Your final answer is one JSON value.");
    const b = jsonOutputBlock({ kind: "json_schema", schema, name: "place" }, false);
    expect(b).toStartWith(`${JSON_OUTPUT_HEADER}\n\n`);
    expect(b).toContain(`matches this JSON Schema (place):\n${JSON.stringify(schema)}`);
    expect(b).toContain("no Markdown code fence");
    expect(b).not.toContain("Tools section");
  });

  test("with tools it says a call is still written as a call", () => {
    expect(jsonOutputBlock({ kind: "json_object" }, true)).toContain("When you need a tool, call it as described in the Tools section");
  });

  test("the retry text quotes the problem", () => {
    expect(jsonRetryText("$.city is required but missing")).toStartWith("Your previous answer could not be used: $.city is required but missing. Answer again with only the JSON value");
  });
});

describe("buildPrompt with JSON output", () => {
  const inline = { currentInputFile: { enabled: true, min_chars: 100_000 } };

  test("the block closes the first system block, after the client's system text", () => {
    const p = buildPrompt(request({ jsonOutput: { kind: "json_schema", schema } }), inline).prompt;
    const block = jsonOutputBlock({ kind: "json_schema", schema }, false);
    expect(p).toContain(`Be brief.\n\n${block}${MARKER_END_INSTRUCTIONS}${MARKER_USER}Where?`);
  });

  test("after the tool block when tools are declared", () => {
    const tools = [{ name: "get_weather", parameters: { type: "object" } }];
    const p = buildPrompt(request({ tools, jsonOutput: { kind: "json_object" } }), inline).prompt;
    expect(p.indexOf("# Tools")).toBeLessThan(p.indexOf(JSON_OUTPUT_HEADER));
    expect(p).toContain("When you need a tool");
  });

  test("in file mode it stays in the live prompt", () => {
    const built = buildPrompt(request({ jsonOutput: { kind: "json_object" } }), { currentInputFile: { enabled: true, min_chars: 0 } });
    expect(built.contextFile).toBeDefined();
    expect(built.prompt).toContain(JSON_OUTPUT_HEADER);
    expect(built.contextFile!.text).not.toContain(JSON_OUTPUT_HEADER);
  });

  test("no block without jsonOutput", () => {
    expect(buildPrompt(request(), inline).prompt).not.toContain(JSON_OUTPUT_HEADER);
  });
});
