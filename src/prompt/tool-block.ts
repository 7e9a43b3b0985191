// The tool instruction block (svcml-and-prompts.md §3.8, §3.9): how core learns the declared tools and the
// svcml markup. Our own wording; the order of its parts follows the spec.
import type { ToolChoice, ToolDef } from "../pipeline/types";
import { writeToolCalls } from "./svcml-writer";

const NO_DESCRIPTION = "(no description given)";

function schemaOf(t: ToolDef): Record<string, any> | null {
  return t.parameters && typeof t.parameters === "object" ? (t.parameters as Record<string, any>) : null;
}

function exampleValue(name: string, schema: any): unknown {
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  if (Array.isArray(schema?.enum) && schema.enum.length) return schema.enum[0];
  const n = name.toLowerCase();
  if (type === "integer") return 1;
  if (type === "number") return 1.5;
  if (type === "boolean") return true;
  if (type === "array") return [exampleValue("item", schema?.items ?? { type: "string" })];
  if (type === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, s] of Object.entries(schema?.properties ?? {}).slice(0, 2)) out[k] = exampleValue(k, s);
    return out;
  }
  if (/path|file|dir/.test(n)) return "src/app.ts";
  if (/^(command|cmd|script)$/.test(n)) return "ls -la";
  if (/^(query|pattern)$/.test(n)) return "error handling";
  return "example";
}

function exampleArgs(t: ToolDef): Record<string, unknown> {
  const props = schemaOf(t)?.properties ?? {};
  const required: string[] = Array.isArray(schemaOf(t)?.required) ? schemaOf(t)!.required : Object.keys(props).slice(0, 2);
  const out: Record<string, unknown> = {};
  for (const k of required.length ? required : Object.keys(props).slice(0, 2)) if (props[k]) out[k] = exampleValue(k, props[k]);
  return out;
}

/** Which declared tools are listed (3.9). */
export function listedTools(tools: ToolDef[], choice: ToolChoice): ToolDef[] {
  if (choice.kind === "forced") return tools.filter((t) => t.name === choice.name);
  if (choice.kind === "allowed") return tools.filter((t) => choice.names.includes(t.name));
  return tools;
}

export function toolInstructionBlock(tools: ToolDef[], choice: ToolChoice, single: boolean): string {
  if (tools.length === 0 || choice.kind === "none") return "";
  const listed = listedTools(tools, choice);
  const parts: string[] = [];
  parts.push("## Tools\n\nYou can call the tools listed below. A tool runs only when you write a tool call in the exact markup described here; the results come back in the next turn.");
  parts.push(
    listed
      .map((t) => `Tool: ${t.name}\nDescription: ${t.description?.trim() || NO_DESCRIPTION}\nParameters: ${JSON.stringify(schemaOf(t) ?? {})}`)
      .join("\n\n"),
  );
  parts.push(
    [
      "### Format",
      "Write every tool call exactly in this form:",
      "",
      "<|svcml|tool_calls>",
      '  <|svcml|invoke name="TOOL_NAME">',
      '    <|svcml|parameter name="ARGUMENT_NAME"><![CDATA[argument value]]></|svcml|parameter>',
      "  </|svcml|invoke>",
      "</|svcml|tool_calls>",
    ].join("\n"),
  );
  parts.push(
    [
      "### Rules",
      "1. A tool call is one svcml block: it starts with the opening <|svcml|tool_calls> tag and ends with </|svcml|tool_calls>. Never leave out the opening tag.",
      "2. One block holds one or more invokes; put independent calls into the same block.",
      "3. The tool name goes in the name attribute of the invoke.",
      "4. Every top-level argument is its own parameter element, named exactly as in the tool's schema.",
      "5. Put every string value in CDATA, even short ones (paths, commands, code, queries, names). Inside CDATA write ]]> as ]]]]><![CDATA[>.",
      "6. Objects are nested elements; arrays are repeated <item> elements.",
      "7. Numbers, booleans and null are written as plain text.",
      "8. Do not wrap the block in a Markdown code fence and do not put explanations or role markers inside it.",
      "9. Put the block at the end of your answer, then stop and wait for the results.",
      "10. The plain tags <tool_calls>, <invoke> and <parameter> are understood too, but prefer the svcml form.",
    ].join("\n"),
  );
  parts.push(
    [
      "### Parameter shapes",
      '- string: <|svcml|parameter name="path"><![CDATA[docs/notes.md]]></|svcml|parameter>',
      '- object: <|svcml|parameter name="options"><mode>fast</mode><retries>2</retries></|svcml|parameter>',
      '- array: <|svcml|parameter name="tags"><item><![CDATA[a]]></item><item><![CDATA[b]]></item></|svcml|parameter>',
      '- scalar: <|svcml|parameter name="limit">20</|svcml|parameter>',
    ].join("\n"),
  );
  parts.push(
    [
      "### Wrong",
      "- Writing prose after the block: the block must be the last thing in the answer.",
      "- Putting the block inside a ``` code fence: it is then shown as an example and never runs.",
      '- Starting with <|svcml|invoke name="…"> without the opening <|svcml|tool_calls> tag.',
    ].join("\n"),
  );
  parts.push("The only way to use a tool is an svcml block at the end of your answer.");
  const examples: string[] = [];
  const withSchema = listed.filter((t) => schemaOf(t));
  if (withSchema[0]) examples.push(`A) One call:\n${writeToolCalls([{ name: withSchema[0].name, arguments: exampleArgs(withSchema[0]) }])}`);
  if (withSchema.length >= 2)
    examples.push(
      `B) Two calls in one block:\n${writeToolCalls(withSchema.slice(0, 2).map((t) => ({ name: t.name, arguments: exampleArgs(t) })))}`,
    );
  const shell = listed.find((t) => /bash|shell|exec|command|terminal/i.test(t.name));
  const shellProp = shell && Object.entries(schemaOf(shell)?.properties ?? {}).find(([, s]: [string, any]) => s?.type === "string")?.[0];
  if (shell && shellProp) examples.push(`C) A multi-line script:\n${writeToolCalls([{ name: shell.name, arguments: { [shellProp]: "set -e\ncd src\nls -la" } }])}`);
  if (examples.length) parts.push(["### Examples", ...examples].join("\n\n"));
  if (listed.some((t) => ["read", "readfile"].includes(t.name.toLowerCase().replace(/[^a-z0-9]/g, ""))))
    parts.push(
      "If a read result says the content is unchanged, already in the conversation, or omitted, treat the content as missing: do not repeat the same read; ask for a full read or tell the user the content is needed.",
    );
  const lines: string[] = [];
  if (choice.kind === "required" || (choice.kind === "allowed" && choice.required)) lines.push("Your answer must contain at least one tool call.");
  if (choice.kind === "forced") lines.push(`Your answer must call the tool ${choice.name} and no other tool.`);
  if (single) lines.push("Your answer may contain at most one invoke.");
  if (lines.length) parts.push(lines.join("\n"));
  return parts.join("\n\n");
}
