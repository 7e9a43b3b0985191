// The JSON output block (issue 16 item 5): core has no JSON mode, so the prompt asks for one JSON value and
// nothing else. It joins the first system block after the tool block (svcml-and-prompts.md §3.2 item 1), so it
// also stays in the live prompt in file mode. The gateway still extracts the value from whatever core writes.
import type { JsonOutputSpec } from "../pipeline/types";

export const JSON_OUTPUT_HEADER = "# Output format";

function shapeLine(spec: JsonOutputSpec): string {
  if (spec.kind === "json_object") return "Your final answer is one JSON object.";
  if (spec.kind === "json_schema" && spec.schema !== undefined) {
    const named = spec.name ? ` (${spec.name})` : "";
    return `Your final answer is one JSON value that matches this JSON Schema${named}:\n${JSON.stringify(spec.schema)}`;
  }
  return "Your final answer is one JSON value.";
}

/** The block, or "" without JSON output. `withTools`: a tool call stays a tool call, written as the tool block says. */
export function jsonOutputBlock(spec: JsonOutputSpec | undefined, withTools: boolean): string {
  if (!spec) return "";
  return [
    JSON_OUTPUT_HEADER,
    shapeLine(spec),
    "Write only the JSON: no Markdown code fence, no explanation before or after it. Use double-quoted keys and strings, and fill every required property.",
    withTools ? "When you need a tool, call it as described in the Tools section; the JSON rule applies to your final answer." : "",
  ]
    .filter((x) => x !== "")
    .join("\n\n");
}

/** The user turn of the one retry: what was wrong with the answer and what to write instead. */
export function jsonRetryText(problem: string): string {
  return `Your previous answer could not be used: ${problem}. Answer again with only the JSON value, matching the required format exactly, with no code fence and no other text.`;
}
