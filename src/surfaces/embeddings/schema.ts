// The embeddings body (gateway.md "Embeddings", D10.3). `input` is checked item by item by the route (a string,
// strings, one token array or token arrays: a union whose failures say nothing useful field by field).
import { t, type Static } from "elysia";

export const EMBEDDINGS_MAX_DIMENSIONS = 4096;

export const EmbeddingsBody = t.Object(
  {
    model: t.String(),
    input: t.Union([t.String(), t.Array(t.Any(), { minItems: 1 })]),
    dimensions: t.Optional(t.Integer({ minimum: 1, maximum: EMBEDDINGS_MAX_DIMENSIONS })),
    encoding_format: t.Optional(t.Union([t.Literal("float"), t.Literal("base64"), t.Null()])),
  },
  { additionalProperties: true },
);

export type EmbeddingsBody = Static<typeof EmbeddingsBody>;
