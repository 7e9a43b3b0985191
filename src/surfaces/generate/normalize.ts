// Generate-content request → the surface part of a TurnRequest (svcml-and-prompts.md §3.6, D10.6). Pure.
import { asText, FileCollector, isObject } from "../../prompt/content";
import { genericEffortIsHigh, HIGH_EFFORT_BUDGET_TOKENS } from "../../prompt/effort-hint";
import { generateToolChoice } from "../../prompt/tool-choice";
import type { JsonOutputSpec, ToolCallHistory, ToolDef, Turn } from "../../pipeline/types";
import { normalized, type NormalizedRequest } from "../business-turn";
import type { GenerateBody, GenerateContent, GenerationConfig } from "./schema";
import type { ThinkingSwitchBody } from "../body-schema";

/** A function response's text: its content / output / result string, else the compact JSON of the response. */
export function functionResponseText(r: unknown): string {
  if (isObject(r)) for (const k of ["content", "output", "result"]) if (typeof r[k] === "string") return r[k];
  return asText(r);
}

/** The roles GenerateContent (generate/schema.ts) admits; absent is user. */
function roleOf(role: GenerateContent["role"]): Turn["role"] {
  if (role === "model") return "assistant";
  if (role === "function" || role === "tool") return "tool";
  // A system entry anywhere in contents is a system turn at that point (issue 16, §3.5 as amended).
  if (role === "system") return "system";
  return "user";
}

function systemText(sys: GenerateBody["systemInstruction"]): string {
  if (typeof sys === "string") return sys;
  return (sys?.parts ?? []).map((x) => x.text ?? "").join("");
}

/** One `contents` entry → its turns: function responses first (they answer the previous model turn). */
function entryTurns(c: GenerateContent, files: FileCollector, isLast: boolean): Turn[] {
  const role = roleOf(c.role);
  const responses: Turn[] = [];
  let text = "";
  const calls: ToolCallHistory[] = [];
  for (const part of c.parts ?? []) {
    const inline = part.inlineData ?? part.inline_data;
    const call = part.functionCall ?? part.function_call;
    const resp = part.functionResponse ?? part.function_response;
    if (typeof part.text === "string") {
      // Thought parts sent back in history are ignored (decisions.md 7.5, which wins over §3.6).
      if (part.thought !== true) text += part.text;
    } else if (inline) files.addBase64(inline.data, inline.mimeType ?? inline.mime_type, inline.displayName ?? undefined);
    else if (call?.name) calls.push({ name: call.name, arguments: call.args ?? {} });
    else if (resp) {
      const of = typeof resp.name === "string" ? { name: resp.name, ...(typeof resp.id === "string" ? { callId: resp.id } : {}) } : {};
      responses.push({ role: "tool", text: functionResponseText(resp.response), toolResultOf: of });
    }
    // fileData (a remote URI), executableCode, codeExecutionResult and the rest are dropped.
  }
  const own: Turn = { role, text };
  if (role === "assistant" && calls.length) own.toolCalls = calls;
  const empty = text === "" && !own.toolCalls;
  // An empty entry adds no turn, except a last user entry without responses (an image-only question).
  if (empty && !(isLast && role === "user" && responses.length === 0)) return responses;
  return [...responses, own];
}

export function readFunctionDeclarations(raw: GenerateBody["tools"]): ToolDef[] {
  const tools: ToolDef[] = [];
  for (const t of raw ?? []) {
    for (const f of t.functionDeclarations ?? t.function_declarations ?? []) {
      if (!f.name) continue;
      const parameters = f.parameters ?? f.parametersJsonSchema ?? f.parameters_json_schema;
      tools.push({ name: f.name, ...(typeof f.description === "string" ? { description: f.description } : {}), ...(parameters !== undefined ? { parameters } : {}) });
    }
  }
  return tools;
}

/** §3.10 effort hint of generate-content: thinkingBudget ≥ 16000 or thinkingLevel high (or a generic high effort). */
export function generateEffortHint(body: Pick<GenerateBody, "generationConfig" | "generation_config"> & ThinkingSwitchBody): boolean {
  const gen = body.generationConfig ?? body.generation_config;
  const tc = gen?.thinkingConfig ?? gen?.thinking_config;
  if (tc) {
    const budget = tc.thinkingBudget ?? tc.thinking_budget;
    const level = tc.thinkingLevel ?? tc.thinking_level;
    if (typeof budget === "number" && budget >= HIGH_EFFORT_BUDGET_TOKENS) return true;
    if (typeof level === "string" && level.toLowerCase() === "high") return true;
  }
  return genericEffortIsHigh(body);
}

/** `body` has passed GenerateBody (generate/schema.ts): contents is a list of entries with known roles. */
export function normalizeGenerate(body: GenerateBody): NormalizedRequest {
  const files = new FileCollector();
  const turns: Turn[] = [];
  const sys = systemText(body.systemInstruction ?? body.system_instruction);
  if (sys) turns.push({ role: "system", text: sys });
  const contents = body.contents;
  contents.forEach((raw, i) => turns.push(...entryTurns(raw, files, i === contents.length - 1)));
  const tools = readFunctionDeclarations(body.tools);
  const { toolChoice, singleCall } = generateToolChoice(body, tools);
  const gen: GenerationConfig = body.generationConfig ?? body.generation_config ?? {};
  const passThrough: Record<string, unknown> = {};
  const copy = (from: unknown, to: string) => {
    if (from !== undefined && from !== null) passThrough[to] = from;
  };
  copy(gen.temperature, "temperature");
  copy(gen.topP ?? gen.top_p, "top_p");
  copy(gen.maxOutputTokens ?? gen.max_output_tokens, "max_tokens");
  copy(gen.stopSequences ?? gen.stop_sequences, "stop");
  return normalized({ turns, tools, toolChoice, singleCall, passThrough, highEffortHint: generateEffortHint(body) }, files);
}

/**
 * The protocol's `responseSchema` (an OpenAPI 3.0 subset: upper-case type names, `nullable`) as JSON Schema,
 * which is what core is shown and what the check reads. Other keys are kept as they are.
 */
export function openApiSchemaToJsonSchema(schema: unknown, depth = 0): unknown {
  if (Array.isArray(schema)) return schema.map((s) => openApiSchemaToJsonSchema(s, depth + 1));
  if (!isObject(schema) || depth > 32) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === "nullable") continue;
    if (k === "type" && typeof v === "string") out.type = v.toLowerCase();
    else if (k === "properties" && isObject(v)) out.properties = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, openApiSchemaToJsonSchema(s, depth + 1)]));
    else if (k === "items" || k === "anyOf" || k === "oneOf" || k === "allOf") out[k] = openApiSchemaToJsonSchema(v, depth + 1);
    else out[k] = v;
  }
  if (schema.nullable === true && typeof out.type === "string") out.type = [out.type, "null"];
  return out;
}

/**
 * Structured output (issue 16 item 5): `responseMimeType: "application/json"`, with `responseJsonSchema` (JSON
 * Schema) or `responseSchema` (converted); without either, any JSON value. Other MIME types ask for nothing.
 */
export function generateJsonOutput(body: Pick<GenerateBody, "generationConfig" | "generation_config">): JsonOutputSpec | undefined {
  const genRaw = body.generationConfig ?? body.generation_config;
  if (!genRaw) return undefined;
  const mime = genRaw.responseMimeType ?? genRaw.response_mime_type;
  if (typeof mime !== "string" || mime.split(";")[0]!.trim().toLowerCase() !== "application/json") return undefined;
  const jsonSchema = genRaw.responseJsonSchema ?? genRaw.response_json_schema;
  if (isObject(jsonSchema)) return { kind: "json_schema", schema: jsonSchema };
  const schema = genRaw.responseSchema ?? genRaw.response_schema;
  if (isObject(schema)) return { kind: "json_schema", schema: openApiSchemaToJsonSchema(schema) };
  return { kind: "json" };
}
