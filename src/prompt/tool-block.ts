// The tool instruction block (svcml-and-prompts.md §3.8, §3.9): how core learns the declared tools and the
// svcml markup. Our own wording; the ten parts come in the order the spec gives. Core has no tool schema
// channel, so everything it knows about tools is in this text.
import type { ToolChoice, ToolDef } from "../pipeline/types";
import { SVCML_WORD } from "../pipeline/svcml/constants";
import { writeToolCalls } from "./svcml-writer";
import { exampleCalls } from "./tool-examples";

const W = SVCML_WORD;
export const NO_DESCRIPTION = "(no description provided)";

/** Which declared tools are listed (§3.9): a forced tool alone, an allowed set, or all of them. */
export function listedTools(tools: ToolDef[], choice: ToolChoice): ToolDef[] {
  if (choice.kind === "forced") return tools.filter((t) => t.name === choice.name);
  if (choice.kind === "allowed") return tools.filter((t) => choice.names.includes(t.name));
  return tools;
}

function header(): string {
  return "# Tools\n\nYou have access to the tools described below. A tool runs only when your answer contains a tool call written in the exact markup shown here; its results come back to you in the next turn.";
}

function toolList(listed: ToolDef[]): string {
  return listed
    .map((t) => {
      const schema = t.parameters === undefined || t.parameters === null ? {} : t.parameters;
      return `Tool: ${t.name}\nDescription: ${t.description?.trim() || NO_DESCRIPTION}\nParameters: ${JSON.stringify(schema)}`;
    })
    .join("\n\n");
}

function format(): string {
  return [
    "## Format",
    "Use exactly this format for tool calls:",
    "",
    `<|${W}|tool_calls>`,
    `  <|${W}|invoke name="TOOL_NAME">`,
    `    <|${W}|parameter name="PARAMETER_NAME"><![CDATA[value]]></|${W}|parameter>`,
    `  </|${W}|invoke>`,
    `</|${W}|tool_calls>`,
  ].join("\n");
}

function rules(): string {
  return [
    "## Rules",
    `1. A tool call is an ${W} block: it begins with the opening tag <|${W}|tool_calls> and ends with </|${W}|tool_calls>. The opening tag is never optional.`,
    "2. One block contains one or more invokes. Calls that do not depend on each other belong in the same block.",
    "3. Write the tool name in the name attribute of the invoke tag.",
    "4. Give every top-level argument its own parameter element, named exactly as in the tool's schema.",
    "5. Wrap every string value in CDATA, short ones too (paths, commands, code, queries, names). If the text itself contains ]]>, write it as ]]]]><![CDATA[>.",
    "6. Write an object as nested elements and an array as repeated <item> elements.",
    "7. Write numbers, booleans and null as plain text.",
    "8. Never put the block in a Markdown code fence, and never put explanations or role markers inside it.",
    "9. The block is the last part of your answer: after it, stop and wait for the results.",
    `10. The plain tags <tool_calls>, <invoke> and <parameter> are also understood, but the ${W} form is preferred.`,
  ].join("\n");
}

function parameterShapes(): string {
  return [
    "## Parameter shapes",
    `- string: <|${W}|parameter name="file"><![CDATA[notes/todo.md]]></|${W}|parameter>`,
    `- object: <|${W}|parameter name="options"><depth>2</depth><follow><![CDATA[links]]></follow></|${W}|parameter>`,
    `- array: <|${W}|parameter name="labels"><item><![CDATA[bug]]></item><item><![CDATA[urgent]]></item></|${W}|parameter>`,
    `- scalar: <|${W}|parameter name="count">5</|${W}|parameter>`,
  ].join("\n");
}

function wrong(): string {
  return [
    "## Wrong",
    "- Text after the block. Nothing may follow the closing tag.",
    "- The block inside a ``` code fence. A fenced block is only an illustration and never runs.",
    `- An invoke without the opening <|${W}|tool_calls> tag before it.`,
  ].join("\n");
}

function anchor(): string {
  return `Remember: the only way to use a tool is an ${W} block at the end of your answer.`;
}

function examples(listed: ToolDef[]): string {
  const ex = exampleCalls(listed);
  const parts: string[] = [];
  if (ex.single) parts.push(`A) One call:\n${writeToolCalls([ex.single])}`);
  if (ex.pair) parts.push(`B) Two calls in one block:\n${writeToolCalls(ex.pair)}`);
  if (ex.nested) parts.push(`C) Nested parameters:\n${writeToolCalls([ex.nested])}`);
  if (ex.script) parts.push(`D) A multi-line script:\n${writeToolCalls([ex.script])}`);
  return parts.length ? ["## Examples", ...parts].join("\n\n") : "";
}

export function hasReadTool(tools: ToolDef[]): boolean {
  return tools.some((t) => {
    const n = t.name.toLowerCase().replace(/[^a-z0-9]/g, "");
    return n === "read" || n === "readfile";
  });
}

function readCacheGuard(): string {
  return "About read results: when a read result says the content is unchanged, is already in the conversation, or was omitted, treat the content as missing. Do not issue the same read again; ask for a full read instead, or tell the user that the content is needed.";
}

function choiceLines(choice: ToolChoice, single: boolean): string {
  const lines: string[] = [];
  if (choice.kind === "required" || (choice.kind === "allowed" && choice.required)) lines.push("Your answer must contain at least one tool call.");
  if (choice.kind === "forced") lines.push(`Your answer must call the tool ${choice.name}, and no other tool.`);
  if (single) lines.push("Your answer may contain at most one invoke.");
  return lines.join("\n");
}

/** The whole block, or "" when there are no tools or tool_choice is none. */
export function toolInstructionBlock(tools: ToolDef[], choice: ToolChoice, single: boolean): string {
  if (tools.length === 0 || choice.kind === "none") return "";
  const listed = listedTools(tools, choice);
  return [
    header(),
    toolList(listed),
    format(),
    rules(),
    parameterShapes(),
    wrong(),
    anchor(),
    examples(listed),
    hasReadTool(tools) ? readCacheGuard() : "",
    choiceLines(choice, single),
  ]
    .filter((p) => p !== "")
    .join("\n\n");
}
