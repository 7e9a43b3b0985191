// The embeddings body (gateway.md "Embeddings", D10.3). Each `input` item is described here; that the items
// form one of the four shapes (a string, strings, one token array or token arrays) is the route's check, as a
// union of the four whole lists would say nothing useful about the item at fault.
import { t, type Static } from "elysia";

export const EMBEDDINGS_MAX_DIMENSIONS = 4096;

export const EmbeddingsBody = t.Object(
  {
    model: t.String(),
    // Items: strings, token ids or token arrays; a list mixing the forms is refused by the route.
    input: t.Union([t.String(), t.Array(t.Union([t.String(), t.Integer(), t.Array(t.Integer(), { minItems: 1 })]), { minItems: 1 })]),
    dimensions: t.Optional(t.Integer({ minimum: 1, maximum: EMBEDDINGS_MAX_DIMENSIONS })),
    encoding_format: t.Optional(t.Union([t.Literal("float"), t.Literal("base64"), t.Null()])),
  },
  { additionalProperties: true },
);

export type EmbeddingsBody = Static<typeof EmbeddingsBody>;
