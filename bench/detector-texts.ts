// The texts the detector benchmark runs on. Deterministic, so runs compare.

const call = (name: string, params: [string, string][]) =>
  [
    "<|svcml|tool_calls>",
    `  <|svcml|invoke name="${name}">`,
    ...params.map(([k, v]) => `    <|svcml|parameter name="${k}">${v}</|svcml|parameter>`),
    "  </|svcml|invoke>",
    "</|svcml|tool_calls>",
  ].join("\n");
const cdata = (s: string) => `<![CDATA[${s}]]>`;

/** Markdown prose with the characters that make a scanner look twice (`<`, `>`, backticks). */
export const prose = "The quick brown fox jumps over the lazy dog; a < b and c > d, `code` and **bold** text.\n".repeat(4000);

const code = `export function parse(input: string): Node[] {
  const out: Node[] = [];
  for (let i = 0; i < input.length; i++) {
    if (input[i] === "<" && input[i + 1] !== "/") out.push(openTag(input, i));
  }
  return out;
}
`;

/**
 * A coding agent's answer: short sentences between tool calls that read, search, run, edit and write files,
 * with arguments of the sizes such calls have (paths, a command, a few lines to replace, a small file).
 */
export const agentTurn = [
  "I'll start by reading the parser.\n",
  call("read_file", [["path", cdata("src/parser.ts")], ["limit", "200"]]),
  "\nNow let me find where it is called.\n",
  call("search", [["pattern", cdata("parse\\(")], ["path", cdata("src/")], ["max_results", "50"]]),
  "\nRunning the tests to see the failure.\n",
  call("bash", [["command", cdata("bun test tests/parser.test.ts --bail 2>&1 | tail -40")], ["timeout", "120000"]]),
  "\nThe closing tag check is wrong; fixing it.\n",
  call("edit_file", [
    ["path", cdata("src/parser.ts")],
    ["old_string", cdata('    if (input[i] === "<") out.push(openTag(input, i));\n')],
    ["new_string", cdata('    if (input[i] === "<" && input[i + 1] !== "/") out.push(openTag(input, i));\n')],
  ]),
  "\nAnd adding a test for it.\n",
  call("write_file", [["path", cdata("tests/parser-close.test.ts")], ["content", cdata(code.repeat(4))]]),
  "\n",
].join("");
export const agentMix = agentTurn.repeat(Math.ceil(400_000 / agentTurn.length));

/** The worst case for markup density: one tiny call after another (about 8 tags per 250 characters). */
const dense = `Let me check.\n${call("read_file", [["path", cdata("src/main.ts")], ["limit", "200"]])}\n`;
export const denseCalls = dense.repeat(1600);

/** Text full of tags that are almost tool tags. */
export const nearMissTags = "<tool_call> <tools> <tool_name> <toolx <invok <param <svcm <| |> << </ <b> <tool_calls_x> <invoke_x ".repeat(4000);
