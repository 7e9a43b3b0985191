// The chat-completions request body (gateway.md "Chat completions", D10.1). Only the checks the gateway has
// always made are described (a lenient field such as `stream`, read as `=== true`, stays lenient); every other
// field is kept and passed through (D3.5), hence additionalProperties everywhere.
import { t, type Static } from "elysia";

const open = { additionalProperties: true } as const;

/** One chat message; shared with the responses surface's `messages`. Content stays free-form (the normaliser reads its parts). */
export const ChatMessage = t.Object(
  {
    role: t.String({ minLength: 1 }),
    tool_calls: t.Optional(t.Union([t.Array(t.Any()), t.Null()])),
  },
  open,
);

export const ChatBody = t.Object(
  {
    // Listed first: a request wrong in both messages and model is told about messages, as before.
    messages: t.Array(ChatMessage, { minItems: 1 }),
    model: t.String(),
  },
  open,
);

export type ChatBody = Static<typeof ChatBody>;
