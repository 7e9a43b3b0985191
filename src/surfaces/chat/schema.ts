// The chat-completions request body (gateway.md "Chat completions", D10.1, svcml-and-prompts.md §3.3): every
// field the gateway reads, in every form the protocol allows. Lenient fields stay lenient (`stream` and
// `parallel_tool_calls` are read as `=== true` / `=== false`); every object is open and unknown fields are kept
// and passed through (D3.5). The pieces of a message are shared with the responses surface.
import { t, type Static } from "elysia";
import { nullable, openObject, OptBoolean, OptString, ParallelToolCalls, Tools, turnBody, TurnOptionFields } from "../body-schema";

/** An `image_url` part's image: a URL (data: URLs are uploaded) or {url, detail}. */
const ImageUrl = t.Union([t.String(), openObject({ url: OptString })]);

/** A file reference or inline file: {file_id} or {file_data (base64 or a data: URL), filename, mime_type}. */
const fileFields = { file_id: OptString, file_data: OptString, filename: OptString, mime_type: OptString };

/**
 * One content part. The kinds the gateway reads: `text` / `input_text` / `output_text` {text}, `image_url` /
 * `input_image` {image_url | file_id}, `file` {file:{…}} / `input_file` {…} (fields at the top level), and
 * `reasoning` / `thinking` {text | thinking} in assistant history. Any other kind (refusal, audio, …) is kept
 * and carries nothing core can use, so the part is one open object whose known fields are typed, rather than
 * a union that would have to refuse the kinds it does not list.
 */
export const ContentPart = openObject({
  type: OptString,
  text: OptString,
  image_url: nullable(ImageUrl),
  file: nullable(openObject(fileFields)),
  ...fileFields,
  thinking: OptString,
});
export type ContentPart = Static<typeof ContentPart>;

/** JSON scalars other than strings: §3.1 makes such content its JSON text; in a list they carry no text. */
const OtherScalars = [t.Number(), t.Boolean(), t.Null()] as const;

/**
 * A message's content (§3.1): a string, null (an assistant turn that only calls tools), a list of parts, or any
 * other JSON value (its compact JSON text). In a list, an object is a part and its known fields are typed;
 * strings are text and other values are dropped.
 */
export const Content = t.Union([t.String(), t.Array(t.Union([t.String(), ContentPart, t.Array(t.Unknown()), ...OtherScalars])), openObject({}), ...OtherScalars]);
export type Content = Static<typeof Content>;

/** A call in assistant history: `arguments` is a JSON string as the protocol says, or the object some clients send. */
const CalledFunction = openObject({ name: OptString, arguments: t.Optional(t.Unknown()) });
const ToolCall = openObject({ id: OptString, type: OptString, function: nullable(CalledFunction) });

/** `reasoning_content` of an assistant message: a string, text parts, or {text}. */
const TextObject = openObject({ text: OptString });
const ReasoningContent = t.Union([t.String(), t.Array(t.Union([t.String(), TextObject])), TextObject]);

/** One chat message; shared with the responses surface's `messages`. */
export const ChatMessage = openObject({
  // Any non-empty role: system, developer, user, assistant, tool, function; an unknown one is a user turn.
  role: t.String({ minLength: 1 }),
  content: t.Optional(Content),
  tool_calls: nullable(t.Array(ToolCall)),
  // The legacy single call of an assistant message.
  function_call: nullable(CalledFunction),
  reasoning_content: nullable(ReasoningContent),
  // A tool result's call id and tool name: kept for the context file (§3.11).
  tool_call_id: OptString,
  name: OptString,
});
export type ChatMessage = Static<typeof ChatMessage>;

/**
 * chat tool_choice: "auto" | "none" | "required" | {type:"function", function:{name}} |
 * {type:"allowed_tools", allowed_tools:{mode, tools}}. Values are checked against the declared tools by
 * prompt/tool-choice.ts, with its own messages; the schema checks the shapes.
 */
const NamedTool = openObject({ name: OptString, function: nullable(openObject({ name: OptString })) });
const allowedToolsFields = { mode: OptString, tools: nullable(t.Array(t.Union([t.String(), NamedTool]))) };
export const ChatToolChoice = nullable(
  t.Union([
    t.String(),
    openObject({
      type: OptString,
      function: nullable(openObject({ name: OptString })),
      name: OptString,
      allowed_tools: nullable(openObject(allowedToolsFields)),
      ...allowedToolsFields,
    }),
  ]),
);

/** Structured output (issue 16 item 5): {type: text | json_object | json_schema, json_schema:{name, schema}}. */
const ResponseFormat = openObject({ type: OptString, json_schema: nullable(openObject({ name: OptString, schema: t.Optional(t.Unknown()) })) });

/** What the chat normaliser reads (chat/normalize.ts): the body without `model`, which prepareTurn reads. */
export const ChatInput = openObject({
  // Listed first: a request wrong in both messages and model is told about messages, as before.
  messages: t.Array(ChatMessage, { minItems: 1 }),
  tools: Tools,
  tool_choice: ChatToolChoice,
  parallel_tool_calls: ParallelToolCalls,
  response_format: nullable(ResponseFormat),
  ...TurnOptionFields,
});
export type ChatInput = Static<typeof ChatInput>;

export const ChatBody = turnBody(ChatInput, {
  // Chat streams always end with usage (D9.7), whatever include_usage says.
  stream_options: nullable(openObject({ include_usage: OptBoolean })),
});
export type ChatBody = Static<typeof ChatBody>;
