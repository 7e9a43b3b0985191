// The SSE parser of the Google SDK copy bundled in Gemini CLI, taken verbatim from the installed bundle:
// the `processStreamResponse(response)` method of its ApiClient with the declarations it uses
// (responseLineRE, HttpResponse, ApiError and the tslib async-generator helpers). The bundle cannot be
// imported (its chunks start the CLI), and a hand copy of the parser would test our copy, not theirs.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BIN } from "./paths";

/** The balanced `{…}` block that starts at the first `{` at or after `from`. */
function blockEnd(src: string, from: number): number {
  let depth = 0;
  for (let i = src.indexOf("{", from); i < src.length; i++) {
    const c = src[i];
    if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i + 1;
  }
  throw new Error("unbalanced block");
}

function declaration(src: string, head: string): string {
  const at = src.indexOf(head);
  if (at < 0) throw new Error(`not found in the Gemini CLI bundle: ${head}`);
  return src.slice(at, blockEnd(src, at));
}

export type StreamParser = (response: Response) => AsyncGenerator<{ json(): Promise<unknown> }>;

export function bundledGeminiParser(): { parser: StreamParser; regex: string; file: string } {
  const dir = join(BIN.gemini, "..");
  const file = readdirSync(dir).find((f) => f.endsWith(".js") && readFileSync(join(dir, f), "utf8").includes("var responseLineRE = "));
  if (!file) throw new Error("no chunk of the Gemini CLI bundle defines responseLineRE");
  const src = readFileSync(join(dir, file), "utf8");
  const reLine = /var responseLineRE = (\/.*\/[a-z]*);\n/.exec(src);
  if (!reLine) throw new Error("responseLineRE has an unexpected form");
  const method = /\n  processStreamResponse\(response\) \{\n/.exec(src);
  if (!method) throw new Error("ApiClient.processStreamResponse(response) not found");
  const methodText = src.slice(method.index, blockEnd(src, method.index));
  const body = methodText.slice(methodText.indexOf("{") + 1, methodText.lastIndexOf("}"));
  const prelude = [
    `var responseLineRE = ${reLine[1]};`,
    declaration(src, "function __await(v) {"),
    declaration(src, "function __asyncGenerator(thisArg, _arguments, generator) {"),
    `${declaration(src, "var HttpResponse = class {")};`,
    `${declaration(src, "var ApiError = class _ApiError extends Error {")};`,
  ].join("\n");
  const parser = new Function(`${prelude}\nreturn function processStreamResponse(response) {${body}};`)() as StreamParser;
  return { parser, regex: reLine[1]!, file };
}
