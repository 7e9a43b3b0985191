// The responses bodies and paths (gateway.md "Responses", D10.2). Which of messages / input / instructions may
// be sent depends on compat.wide_input_strict_output, a run-time setting: the normaliser decides that; the
// schema describes each field's shape. Unknown fields are kept (D3.5).
import { t, type Static } from "elysia";
import { ChatMessage } from "../chat/schema";

const open = { additionalProperties: true } as const;

/** An `input` item: a string (a user message) or an item object (message, function_call, …). */
const InputItem = t.Union([t.String(), t.Object({}, open)]);

export const ResponsesBody = t.Object(
  {
    messages: t.Optional(t.Union([t.Array(ChatMessage), t.Null()])),
    instructions: t.Optional(t.Union([t.String(), t.Null()])),
    input: t.Optional(t.Union([t.String(), t.Array(InputItem), t.Object({}, open), t.Null()])),
    model: t.String(),
    // Read by the gateway but free-form (the normaliser and the stored response take what they understand).
    previous_response_id: t.Optional(t.Unknown()),
    tools: t.Optional(t.Unknown()),
    tool_choice: t.Optional(t.Unknown()),
    store: t.Optional(t.Unknown()),
    metadata: t.Optional(t.Unknown()),
  },
  open,
);
export type ResponsesBody = Static<typeof ResponsesBody>;

export const ResponseIdParams = t.Object({ id: t.String() });
