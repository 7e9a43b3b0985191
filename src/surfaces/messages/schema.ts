// The messages-protocol bodies (gateway.md "Messages protocol", D10.5): create and count_tokens. Unknown fields
// are kept (D3.5). System text reads alike at the top level and in a `role: "system"` message (issue 16).
import { t, type Static } from "elysia";

const open = { additionalProperties: true } as const;

const Block = t.Object({}, open);
/** A string, or a list of blocks (text, image, document, tool_use, tool_result, thinking, …). */
const Content = t.Union([t.String(), t.Array(Block)]);

export const MessagesMessage = t.Object(
  {
    role: t.Union([t.Literal("user"), t.Literal("assistant"), t.Literal("system")]),
    content: Content,
  },
  open,
);

const messagesFields = {
  messages: t.Array(MessagesMessage),
  system: t.Optional(t.Union([t.String(), t.Array(t.Any()), t.Null()])),
};

// max_tokens is read only to be defaulted when absent; it never cuts output (gateway.md Limits).
export const MessagesBody = t.Object({ ...messagesFields, model: t.String(), max_tokens: t.Optional(t.Unknown()) }, open);
export type MessagesBody = Static<typeof MessagesBody>;

/** count_tokens validates the model first (D10.5), then the messages. */
export const CountTokensBody = t.Object({ model: t.String(), ...messagesFields }, open);
export type CountTokensBody = Static<typeof CountTokensBody>;
