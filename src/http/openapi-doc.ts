// What the OpenAPI documents say about a route beyond its request schemas (issue 34 item 5): a summary and tag,
// who may call it (the security schemes below), and the shape of its answers with an example. Routes answer with
// hand-built Responses (json-response.ts), which Elysia never checks against a `response:` schema, so these
// schemas describe; tests/http/openapi.test.ts holds them to what the routes answer.
// First: t.Integer compiled on first use. This module's schemas are built at load and it lands in a chunk of its
// own, shared with the admin part, which is evaluated before src/app.ts imports elysia-integer (issue 35).
import "./elysia-integer";
import { t, type TSchema } from "elysia";

/** components.securitySchemes of both documents: the business key in each form D5.1 reads, the admin credential. */
export const SECURITY_SCHEMES = {
  bearerKey: { type: "http", scheme: "bearer", description: "A business API key (or, in pass-through mode, a core token) as `Authorization: Bearer`." },
  xApiKey: { type: "apiKey", in: "header", name: "x-api-key", description: "The business key in the messages protocol's header." },
  googApiKey: { type: "apiKey", in: "header", name: "x-goog-api-key", description: "The business key in the generate-content protocol's header." },
  queryKey: { type: "apiKey", in: "query", name: "key", description: "The business key as `?key=` (generate-content clients)." },
  adminKey: { type: "http", scheme: "bearer", description: "The admin key (SVC_ADMIN_KEY) as a Bearer." },
  adminJwt: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "A console session token from POST /admin/login." },
  metricsToken: { type: "http", scheme: "bearer", description: "`metrics.token`, for a Prometheus scraper." },
} as const;

type Requirement = Record<keyof typeof SECURITY_SCHEMES, string[]>;
const any = (...names: (keyof typeof SECURITY_SCHEMES)[]) => names.map((n) => ({ [n]: [] }) as unknown as Requirement);

/** Alternatives (OR): any one of the listed credentials is enough. `open` is stated, not left out. */
export const SECURITY = {
  business: any("bearerKey", "xApiKey", "googApiKey", "queryKey"),
  admin: any("adminKey", "adminJwt"),
  adminJwtOnly: any("adminJwt"),
  metrics: any("adminKey", "adminJwt", "metricsToken"),
  open: [] as Requirement[],
};

export type Audience = keyof typeof SECURITY;

/** The `detail:` of a route: its summary, its tag, who may call it, and a longer description when one helps. */
export function doc(tag: string, audience: Audience, summary: string, description?: string) {
  return { tags: [tag], summary, security: SECURITY[audience], ...(description ? { description } : {}) };
}

/**
 * Answers are open objects: a field added later breaks no client. Said explicitly on every object, because
 * Elysia closes an object schema that says nothing (additionalProperties: false) when it compiles the route.
 */
function openObjects(schema: Record<string, unknown>): void {
  if (schema.type === "object" && schema.additionalProperties === undefined) schema.additionalProperties = true;
  for (const p of Object.values((schema.properties ?? {}) as Record<string, Record<string, unknown>>)) openObjects(p);
  for (const s of [schema.items, ...((schema.anyOf ?? []) as unknown[])]) if (s && typeof s === "object") openObjects(s as Record<string, unknown>);
}

/** A field that may be null. */
export const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);

/** A schema with its example: the documents show it beside the schema. */
export function withExample<T extends TSchema>(schema: T, example: unknown): T {
  const copy = { ...schema, examples: [example] };
  openObjects(copy);
  return copy;
}

/** A schema whose media type is not JSON (HTML, CSS, CSV, the Prometheus text): openapi.ts files it under that type. */
export const textAnswer = (mediaType: string, description: string, example: string) =>
  withExample(t.String({ contentMediaType: mediaType, description }), example);

/** The error bodies of each surface (errors.ts errorBody; D4.1–D4.4), for the documents' 4xx/5xx answers. */
export const ErrorAnswers = {
  admin: withExample(t.Object({ detail: t.String() }, { description: "An admin error." }), { detail: "Key not found." }),
  chat: withExample(
    t.Object({ error: t.Object({ message: t.String(), type: t.String(), code: t.Union([t.String(), t.Null()]), param: t.Union([t.String(), t.Null()]) }) }, { description: "An error in the chat-completions shape." }),
    { error: { message: "model is required.", type: "invalid_request_error", code: "invalid_request", param: "model" } },
  ),
  messages: withExample(
    t.Object({ type: t.Literal("error"), error: t.Object({ type: t.String(), message: t.String() }) }, { description: "An error in the messages shape." }),
    { type: "error", error: { type: "invalid_request_error", message: "messages is required." } },
  ),
  generate: withExample(
    t.Object({ error: t.Object({ code: t.Integer(), message: t.String(), status: t.String() }) }, { description: "An error in the generate-content shape." }),
    { error: { code: 400, message: "contents is required.", status: "INVALID_ARGUMENT" } },
  ),
};

/** The `success` and `config_writable` fields of every admin write (auth-routes.ts writeInfo; D2.2, D11.1). */
export const writeFields = {
  config_writable: t.Boolean(),
  config_warning: t.Optional(t.String()),
};
