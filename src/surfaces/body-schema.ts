// Schema pieces shared by the business bodies (chat, responses, messages, generate-content). Every object stays
// open (D3.5: unknown fields are kept and passed through) and every optional field the gateway reads may also be
// null, as SDKs serialise an unset option; a field is described with every form the protocol allows (the
// wide input of svcml-and-prompts.md §3.3–3.6), so only a value of a type no protocol has is refused, with the
// dotted `param` of D4.3 (http/validation-error.ts).
import { t, type Static, type TSchema } from "elysia";
import type { TObject, TProperties, TString } from "@sinclair/typebox";

export const open = { additionalProperties: true } as const;

/**
 * An open object: additional properties allowed, and its static type says so (an index signature of unknown
 * values), so code reading the body sees the described fields typed and any other field as `unknown`, never
 * `any`, and a caller may build one with fields the schema does not name.
 */
export interface TOpenObject<P extends TProperties> extends TObject<P> {
  static: Static<TObject<P>> & { [field: string]: unknown };
}
export function openObject<P extends TProperties>(properties: P, options: { description?: string } = {}): TOpenObject<P> {
  const schema: TObject = t.Object(properties as TProperties, { ...options, ...open });
  return schema as TOpenObject<P>;
}

/** An optional field that may also be sent as null. */
export const nullable = <T extends TSchema>(schema: T) => t.Optional(t.Union([schema, t.Null()]));

export const OptString = nullable(t.String());
export const OptBoolean = nullable(t.Boolean());
export const OptNumber = nullable(t.Number());

/**
 * The generic thinking switches every surface reads, in D7.2's order (models/thinking.ts): `thinking` (a
 * boolean, "enabled"/"disabled"/…, or the messages protocol's {type, budget_tokens}), `reasoning` (a boolean, an
 * effort, or {effort, enabled}) and `reasoning_effort`; the same three inside `extra_body`. A value that names
 * no switch (an unknown effort word) is ignored by the reader, not refused: only the types are checked here.
 */
const thinkingSwitchFields = {
  thinking: nullable(
    t.Union([
      t.Boolean(),
      t.String(),
      openObject({ type: OptString, budget_tokens: OptNumber, effort: OptString }),
    ]),
  ),
  reasoning: nullable(t.Union([t.Boolean(), t.String(), openObject({ effort: OptString, enabled: OptBoolean })])),
  reasoning_effort: OptString,
};

export const ThinkingSwitches = {
  ...thinkingSwitchFields,
  extra_body: nullable(openObject(thinkingSwitchFields)),
};
/** The part of a body the generic effort hint reads (prompt/effort-hint.ts). */
export const ThinkingSwitchBody = openObject(ThinkingSwitches);
export type ThinkingSwitchBody = Static<typeof ThinkingSwitchBody>;

/**
 * The request-level file id lists (`ref_file_ids`, `file_ids`, `attachments`; prompt/content.ts
 * addRequestIdLists): ids, or objects carrying a `file_id` / `id`.
 */
const FileIdList = nullable(t.Array(t.Union([t.String(), openObject({ file_id: OptString, id: OptString })])));
const FileIdLists = { ref_file_ids: FileIdList, file_ids: FileIdList, attachments: FileIdList };

/**
 * A declared tool in the function form {type:"function", function:{name, description, parameters}} or the flat
 * form {name, description, parameters | input_schema | inputSchema | schema} (prompt/content.ts readTools). A tool
 * without a name is ignored, as are built-in tool types; the parameters are a JSON Schema core is shown as is.
 */
const toolFunctionFields = {
  name: OptString,
  description: OptString,
  parameters: t.Optional(t.Unknown()),
};
export const ToolDecl = openObject(
  {
    type: OptString,
    function: nullable(openObject(toolFunctionFields)),
    ...toolFunctionFields,
    input_schema: t.Optional(t.Unknown()),
    inputSchema: t.Optional(t.Unknown()),
    schema: t.Optional(t.Unknown()),
    parametersJsonSchema: t.Optional(t.Unknown()),
  },
);
export const Tools = nullable(t.Array(ToolDecl));

/** Sampling options (D9.9): accepted, passed to core as sent (core-upstream.md §5.6), never enforced here. */
const SamplingFields = {
  temperature: t.Optional(t.Unknown()),
  top_p: t.Optional(t.Unknown()),
  max_tokens: t.Optional(t.Unknown()),
  max_completion_tokens: t.Optional(t.Unknown()),
  presence_penalty: t.Optional(t.Unknown()),
  frequency_penalty: t.Optional(t.Unknown()),
  stop: t.Optional(t.Unknown()),
};

/** What chat and responses both read after their own fields: the thinking switches, the file id lists, sampling. */
export const TurnOptionFields = { ...ThinkingSwitches, ...FileIdLists, ...SamplingFields };

/** `stream` is read as `=== true` (lenient: any other value is a JSON answer, never a 400). */
const StreamSwitch = t.Optional(t.Unknown({ description: "true streams server-sent events; any other value answers with one JSON object" }));

/**
 * A surface's whole body: what its normaliser reads, then `model` (prepareTurn reads it) and the `stream` switch,
 * then the surface's own fields (validation reports in this order).
 */
export function turnBody<P extends TProperties, E extends TProperties = {}>(input: TOpenObject<P>, extra?: E) {
  return openObject({ ...input.properties, model: t.String(), stream: StreamSwitch, ...extra } as P & { model: TString; stream: typeof StreamSwitch } & E);
}

/** `parallel_tool_calls` is read as `=== false` (lenient, as `stream`). */
export const ParallelToolCalls = t.Optional(t.Unknown({ description: "false asks for at most one tool call; any other value is ignored" }));

/** `thinkingBudget` → `thinking_budget`: the generate-content protocol accepts both spellings of every field. */
type SnakeCase<S extends string> = S extends `${infer H}${infer R}` ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${SnakeCase<R>}` : S;
export type BothSpellings<P extends TProperties> = P & { [K in keyof P & string as SnakeCase<K>]: P[K] };

/** The fields under their camelCase names and their snake_case names (generate-content, D10.6). */
export function bothSpellings<P extends TProperties>(fields: P): BothSpellings<P> {
  const out: TProperties = { ...fields };
  for (const [k, v] of Object.entries(fields)) out[k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = v;
  return out as BothSpellings<P>;
}
