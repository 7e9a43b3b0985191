// The responses bodies and paths (gateway.md "Responses", D10.2, svcml-and-prompts.md §3.4). Which of messages /
// input / instructions may be sent depends on compat.wide_input_strict_output, a run-time setting: the
// normaliser decides that; the schema describes each field's shape in its widest form (the setting only narrows
// which fields are read). Unknown fields and unknown item kinds are kept (D3.5).
import { t, type Static } from "elysia";
import { ChatMessage, ChatToolChoice, Content } from "../chat/schema";
import { nullable, openObject, OptString, ParallelToolCalls, ToolDecl, turnBody, TurnOptionFields } from "../body-schema";

/**
 * An `input` item object. Its `type` says what it is: a message (also any item with a role and no type),
 * `function_call` / `custom_tool_call` {call_id, name, namespace, arguments | input}, `function_call_output` /
 * `custom_tool_call_output` {call_id, output}, `additional_tools` {tools}; reasoning, item_reference and other
 * kinds are dropped. One open object with the known fields typed: a message item's role and content are
 * checked further by the normaliser (responses/normalize.ts), which knows the item is a message.
 */
export const InputItemObject = openObject({
  type: OptString,
  role: OptString,
  content: t.Optional(Content),
  call_id: OptString,
  name: OptString,
  namespace: OptString,
  // A JSON string as the protocol says; some clients send the object.
  arguments: t.Optional(t.Unknown()),
  // A custom tool call's raw input.
  input: OptString,
  // A string, or parts whose text is joined.
  output: t.Optional(t.Unknown()),
  tools: nullable(t.Array(ToolDecl)),
});
export type InputItemObject = Static<typeof InputItemObject>;

/** An `input` item: a string (a user message) or an item object. */
export const InputItem = t.Union([t.String(), InputItemObject]);
export type InputItem = Static<typeof InputItem>;

/**
 * A declared tool: the function forms of chat, a namespace {type:"namespace", name, description, tools}, a
 * custom (freeform) tool {type:"custom", name, description, format}, or a built-in type (ignored).
 */
const ResponsesTool = openObject({
  ...ToolDecl.properties,
  tools: nullable(t.Array(ToolDecl)),
  format: nullable(openObject({ type: OptString, syntax: OptString, definition: OptString })),
});

/** Structured output (issue 16 item 5): text.format {type: text | json_object | json_schema, name, schema}. */
const TextOptions = openObject({ format: nullable(openObject({ type: OptString, name: OptString, schema: t.Optional(t.Unknown()) })) });

/** What the responses normaliser reads (responses/normalize.ts): the body without `model`. */
export const ResponsesInput = openObject({
  messages: nullable(t.Array(ChatMessage)),
  instructions: OptString,
  input: nullable(t.Union([t.String(), t.Array(InputItem), InputItemObject])),
  tools: nullable(t.Array(ResponsesTool)),
  tool_choice: ChatToolChoice,
  parallel_tool_calls: ParallelToolCalls,
  text: nullable(TextOptions),
  max_output_tokens: t.Optional(t.Unknown({ description: "passed to core as max_tokens when a number; never cuts output (D9.9)" })),
  ...TurnOptionFields,
});
export type ResponsesInput = Static<typeof ResponsesInput>;

export const ResponsesBody = turnBody(ResponsesInput, {
  previous_response_id: OptString,
  store: t.Optional(t.Unknown({ description: "false: the response is not stored; any other value stores it" })),
  // Echoed in the response object (default {}).
  metadata: nullable(openObject({})),
});
export type ResponsesBody = Static<typeof ResponsesBody>;

export const ResponseIdParams = t.Object({ id: t.String() });
