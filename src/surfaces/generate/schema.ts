// The generate-content body and path (gateway.md "Generate-content protocol", D10.6). The model comes from the
// path; unknown fields are kept (D3.5).
import { t, type Static } from "elysia";

const open = { additionalProperties: true } as const;

export const GenerateContent = t.Object(
  {
    // Absent means user; a system entry anywhere is a system turn at that point (issue 16).
    role: t.Optional(t.Union([t.Literal("user"), t.Literal("model"), t.Literal("function"), t.Literal("tool"), t.Literal("system"), t.Null()])),
    parts: t.Optional(t.Array(t.Object({}, open))),
  },
  open,
);

export const GenerateBody = t.Object({ contents: t.Array(GenerateContent) }, open);
export type GenerateBody = Static<typeof GenerateBody>;

/** `{model}:{action}` is one path segment: Elysia's router cannot split it, the route does. */
export const GenerateParams = t.Object({ modelAction: t.String() });
