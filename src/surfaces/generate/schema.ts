// The generate-content body and path (gateway.md "Generate-content protocol", D10.6, svcml-and-prompts.md §3.6).
// The model comes from the path; every field is accepted in camelCase and snake_case, as the protocol's own
// clients send either; unknown fields and part kinds are kept (D3.5).
import { t, type Static } from "elysia";
import { bothSpellings, nullable, openObject, OptBoolean, OptNumber, OptString, ThinkingSwitches } from "../body-schema";

/** Inline data: base64 `data` with its MIME type (uploaded, §3.12). */
const Blob = openObject(bothSpellings({ data: OptString, mimeType: OptString, displayName: OptString }));

/**
 * One part. The kinds the gateway reads: text {text, thought}, inlineData, functionCall {name, args, id},
 * functionResponse {name, id, response}; fileData, executableCode, codeExecutionResult and others are kept and
 * dropped. One open object with the known fields typed, so a kind the list does not name is never refused.
 */
export const Part = openObject({
  text: OptString,
  // true marks a thought part sent back in history (ignored, D7.5).
  thought: OptBoolean,
  ...bothSpellings({
    inlineData: nullable(Blob),
    functionCall: nullable(openObject({ name: OptString, args: t.Optional(t.Unknown()), id: OptString })),
    functionResponse: nullable(openObject({ name: OptString, id: OptString, response: t.Optional(t.Unknown()) })),
  }),
});
export type Part = Static<typeof Part>;

export const GenerateContent = openObject({
  // Absent means user; a system entry anywhere is a system turn at that point (issue 16).
  role: t.Optional(t.Union([t.Literal("user"), t.Literal("model"), t.Literal("function"), t.Literal("tool"), t.Literal("system"), t.Null()])),
  parts: t.Optional(t.Array(Part)),
});
export type GenerateContent = Static<typeof GenerateContent>;

/** `systemInstruction`: a string, or a content whose text parts are concatenated. */
const SystemInstruction = t.Union([t.String(), openObject({ parts: nullable(t.Array(openObject({ text: OptString }))) })]);

/** A declared function: `parameters` (OpenAPI subset) or `parametersJsonSchema`, shown to core as is. */
const FunctionDeclaration = openObject({
  name: OptString,
  description: OptString,
  parameters: t.Optional(t.Unknown()),
  ...bothSpellings({ parametersJsonSchema: t.Optional(t.Unknown()) }),
});
/** A tool: its function declarations; other tool kinds (googleSearch, codeExecution, …) are ignored. */
const Tool = openObject(bothSpellings({ functionDeclarations: nullable(t.Array(FunctionDeclaration)) }));

/** toolConfig.functionCallingConfig {mode: AUTO | ANY | NONE | VALIDATED, allowedFunctionNames}; values: prompt/tool-choice.ts. */
const FunctionCallingConfig = openObject(bothSpellings({ mode: OptString, allowedFunctionNames: nullable(t.Array(t.Union([t.String(), openObject({ name: OptString })]))) }));
const ToolConfig = openObject(bothSpellings({ functionCallingConfig: nullable(FunctionCallingConfig) }));

/** The thinking switch of generate-content (D7.3): a budget (0 off, -1 or > 0 on), includeThoughts, or a level. */
const ThinkingConfig = openObject(bothSpellings({ thinkingBudget: OptNumber, includeThoughts: OptBoolean, thinkingLevel: OptString }));

const GenerationConfig = openObject(
  bothSpellings({
    // Passed to core as sent (§3.6), never enforced (D9.9).
    temperature: t.Optional(t.Unknown()),
    topP: t.Optional(t.Unknown()),
    maxOutputTokens: t.Optional(t.Unknown()),
    stopSequences: t.Optional(t.Unknown()),
    thinkingConfig: nullable(ThinkingConfig),
    // Structured output (issue 16 item 5): application/json, with a JSON Schema or an OpenAPI-subset schema.
    responseMimeType: OptString,
    responseJsonSchema: t.Optional(t.Unknown()),
    responseSchema: t.Optional(t.Unknown()),
  }),
);
export type GenerationConfig = Static<typeof GenerationConfig>;

export const GenerateBody = openObject({
  contents: t.Array(GenerateContent),
  ...bothSpellings({
    systemInstruction: nullable(SystemInstruction),
    toolConfig: nullable(ToolConfig),
    generationConfig: nullable(GenerationConfig),
  }),
  tools: nullable(t.Array(Tool)),
  ...ThinkingSwitches,
});
export type GenerateBody = Static<typeof GenerateBody>;

/** `{model}:{action}` is one path segment: Elysia's router cannot split it, the route does. */
export const GenerateParams = t.Object({ modelAction: t.String() });
