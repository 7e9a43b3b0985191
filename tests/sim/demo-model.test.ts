// The demo model (core-upstream §12.8 step 3): quotes the last user request, thinks only when asked,
// writes a well-formed svcml tool call when tools are declared and asked for, and quotes a tool result.
import { describe, expect, test } from "bun:test";
import { demoAnswer, lastTurn } from "../../src/sim/demo-model";
import { jsonOutputBlock } from "../../src/prompt/json-instruction";
import { MARKER_BOS as B, MARKER_END_INSTRUCTIONS as EOI, MARKER_USER as U, MARKER_ASSISTANT as A, MARKER_EOS as EOS, MARKER_TOOL as T, MARKER_END_TOOL_RESULTS as ET, MARKER_SYSTEM as SYS } from "../../src/prompt/markers";

const TOOLS =
  "## Tools\n\nTool: get_weather\nDescription: weather\nParameters: " +
  JSON.stringify({ type: "object", properties: { city: { type: "string" }, days: { type: "integer" } }, required: ["city", "days"] }) +
  "\n\nTool: read_file\nDescription: read\nParameters: " +
  JSON.stringify({ type: "object", properties: { path: { type: "string" } }, required: ["path"] });

describe("demo model", () => {
  test("quotes the start of the last user request and says it comes from the simulator; reasoning only with thinking", () => {
    const p = `${B}${SYS}be brief${EOI}${U}first question${A}ok${EOS}${U}What is the capital of France?${A}`;
    const off = demoAnswer(p, false);
    expect(off.answer).toBe('You said: "What is the capital of France?". This answer comes from the core simulator.');
    expect(off.thinking).toBe("");
    expect(demoAnswer(p, true).thinking).toContain("What is the capital of France?");
  });

  test("a declared tool asked for by name → an svcml call with values for every required property", () => {
    const p = `${B}${SYS}${TOOLS}${EOI}${U}Please use get_weather for me${A}`;
    const a = demoAnswer(p, false);
    expect(a.toolCall).toBe(true);
    expect(a.answer).toBe(
      [
        "<|svcml|tool_calls>",
        '  <|svcml|invoke name="get_weather">',
        '    <|svcml|parameter name="city"><![CDATA[Paris]]></|svcml|parameter>',
        '    <|svcml|parameter name="days">1</|svcml|parameter>',
        "  </|svcml|invoke>",
        "</|svcml|tool_calls>",
      ].join("\n"),
    );
    expect(demoAnswer(`${B}${SYS}${TOOLS}${EOI}${U}open the file via read_file${A}`, false).answer).toContain('<|svcml|parameter name="path"><![CDATA[README.md]]>');
    expect(demoAnswer(`${B}${SYS}${TOOLS}${EOI}${U}just say hello${A}`, false).toolCall).toBe(false);
  });

  test("a tool result as the last turn → a short text quoting it, never another call", () => {
    const p = `${B}${SYS}${TOOLS}${EOI}${U}use get_weather${A}<|svcml|tool_calls>…</|svcml|tool_calls>${EOS}${T}{"temp":21}${ET}${A}`;
    expect(lastTurn(p)).toEqual({ role: "tool", text: '{"temp":21}' });
    const a = demoAnswer(p, false);
    expect(a.toolCall).toBe(false);
    expect(a.answer).toContain('{"temp":21}');
  });

  test("'the NAME tool' picks that tool over other names mentioned, and a backquoted command becomes the command value", () => {
    const shell =
      "Tool: Read\nDescription: read\nParameters: " +
      JSON.stringify({ type: "object", properties: { path: { type: "string" } }, required: ["path"] }) +
      "\n\nTool: Bash\nDescription: shell\nParameters: " +
      JSON.stringify({ type: "object", properties: { command: { type: "string" }, timeout: { type: "number" } }, required: ["command"] });
    const a = demoAnswer(`${B}${SYS}${shell}${EOI}${U}Read the notes, then use the Bash tool to run \`echo svc-marker-123\`${A}`, false);
    expect(a.answer).toContain('<|svcml|invoke name="Bash">');
    expect(a.answer).toContain('<|svcml|parameter name="command"><![CDATA[echo svc-marker-123]]>');
    // Without backquotes the guess stays the harmless default.
    expect(demoAnswer(`${B}${SYS}${shell}${EOI}${U}use the Bash tool${A}`, false).answer).toContain("<![CDATA[ls]]>");
  });
});

describe("demo model: the gateway's JSON output block", () => {
  const withBlock = (block: string) => `${B}${SYS}${block}${EOI}${U}Pick a model for this request.${A}`;
  test("a schema gets one JSON value with its required properties (enums take their first value)", () => {
    const schema = { type: "object", properties: { reasoning: { type: "string" }, model_choice: { type: "string", enum: ["flash", "pro"] }, extra: { type: "number" } }, required: ["reasoning", "model_choice"] };
    const a = demoAnswer(withBlock(jsonOutputBlock({ kind: "json_schema", schema }, false)), false);
    expect(a.toolCall).toBe(false);
    expect(JSON.parse(a.answer)).toEqual({ reasoning: "example", model_choice: "flash" });
  });
  test("json_object without a schema gets a JSON object", () => {
    const a = demoAnswer(withBlock(jsonOutputBlock({ kind: "json_object" }, false)), false);
    expect(typeof JSON.parse(a.answer)).toBe("object");
  });
  test("without the block the answer stays prose", () => {
    expect(() => JSON.parse(demoAnswer(withBlock("You are helpful."), false).answer)).toThrow();
  });
});
