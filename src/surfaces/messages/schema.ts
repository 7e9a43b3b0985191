// The messages-protocol bodies (gateway.md "Messages protocol", D10.5, svcml-and-prompts.md §3.5): create and
// count_tokens. Unknown fields and unknown block kinds are kept (D3.5). System text reads alike at the top level
// and in a `role: "system"` message (issue 16).
import { t, type Static } from "elysia";
import { nullable, openObject, OptBoolean, OptString, ThinkingSwitches, turnBody, Tools } from "../body-schema";

/** An image or document source: base64 {data, media_type}, text {data}, file {file_id} or url {url}. */
const Source = openObject({ type: OptString, data: OptString, media_type: OptString, url: OptString, file_id: OptString });

/** A block inside a tool result: text, image or document (others dropped). */
const ResultBlock = openObject({ type: OptString, text: OptString, source: nullable(Source) });
export type ResultBlock = Static<typeof ResultBlock>;

/**
 * One content block. The kinds the gateway reads: text {text}, image / document {source}, tool_use {id, name,
 * input}, tool_result {tool_use_id, content, is_error}; thinking, redacted_thinking, server tool blocks and any
 * other kind are kept and dropped. One open object with the known fields typed, so a kind the list does not
 * name is never refused.
 */
export const Block = openObject({
  type: OptString,
  text: OptString,
  source: nullable(Source),
  id: OptString,
  name: OptString,
  input: t.Optional(t.Unknown()),
  tool_use_id: OptString,
  content: nullable(t.Union([t.String(), t.Array(ResultBlock)])),
  is_error: OptBoolean,
});
export type Block = Static<typeof Block>;

/** A string, or a list of blocks. */
const Content = t.Union([t.String(), t.Array(Block)]);

export const MessagesMessage = openObject({
  role: t.Union([t.Literal("user"), t.Literal("assistant"), t.Literal("system")]),
  content: Content,
});
export type MessagesMessage = Static<typeof MessagesMessage>;

/** Top-level `system`: a string or text blocks (`cache_control` ignored). */
const SystemBlock = openObject({ type: OptString, text: OptString });

/** messages tool_choice {type: auto | any | tool | none, name, disable_parallel_tool_use}; values: prompt/tool-choice.ts. */
const ToolChoice = openObject({ type: OptString, name: OptString, disable_parallel_tool_use: OptBoolean });

/** Structured output (issue 16 item 5): {type: "json_schema", schema}. */
const OutputFormat = openObject({ type: OptString, schema: t.Optional(t.Unknown()) });

const messagesFields = {
  messages: t.Array(MessagesMessage),
  system: nullable(t.Union([t.String(), t.Array(SystemBlock)])),
  tools: Tools,
  tool_choice: nullable(ToolChoice),
  // `thinking` {type, budget_tokens} is the generic switch (models/thinking.ts); a budget ≥ 16000 asks for high effort.
  ...ThinkingSwitches,
  output_config: nullable(openObject({ format: nullable(OutputFormat), effort: OptString })),
  // The older spelling the SDK still accepts.
  output_format: nullable(OutputFormat),
  // Passed to core as sent (§3.5); never enforced (D9.9). max_tokens is only defaulted when absent.
  max_tokens: t.Optional(t.Unknown()),
  temperature: t.Optional(t.Unknown()),
  top_p: t.Optional(t.Unknown()),
  stop_sequences: t.Optional(t.Unknown()),
};

/** What the messages normaliser reads (messages/normalize.ts): the body without `model`. */
export const MessagesInput = openObject(messagesFields);
export type MessagesInput = Static<typeof MessagesInput>;

export const MessagesBody = turnBody(MessagesInput);
export type MessagesBody = Static<typeof MessagesBody>;

/** count_tokens validates the model first (D10.5), then the messages. */
export const CountTokensBody = openObject({ model: t.String(), ...messagesFields });
export type CountTokensBody = Static<typeof CountTokensBody>;
