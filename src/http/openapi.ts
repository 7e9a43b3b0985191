// GET /openapi.json: the OpenAPI 3.1 document generated from the routes' TypeBox schemas by @elysiajs/openapi's
// generator. Only the JSON document is served: the plugin's HTML pages load their scripts from a CDN and the
// binary must work offline. The generator lists a request body only under the content types of Elysia's
// built-in parsers; our routes parse JSON with the named "business"/"admin" parsers (JSON whatever the
// Content-Type, D3.5), so their body schemas are put under application/json here.
import { Elysia, type AnyElysia } from "elysia";
import { toOpenAPISchema } from "@elysiajs/openapi";
import { VERSION } from "../version";

export const OPENAPI_PATH = "/openapi.json";
const OPENAPI_VERSION = "3.1.0";

type Operation = { requestBody?: { content?: Record<string, unknown> } };

/** `/v1/responses/:id` → `/v1/responses/{id}`, as the generator writes paths. */
const openapiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");

export function openapiDocument(app: AnyElysia) {
  const { paths, components } = toOpenAPISchema(app, undefined, undefined, undefined, OPENAPI_VERSION);
  for (const route of app.routes) {
    const body = route.hooks?.body;
    if (!body || typeof body === "string") continue;
    const op = (paths[openapiPath(route.path)] as Record<string, Operation> | undefined)?.[route.method.toLowerCase()];
    if (op?.requestBody && Object.keys(op.requestBody.content ?? {}).length === 0) op.requestBody.content = { "application/json": { schema: body } };
  }
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: "svc-gateway",
      version: VERSION,
      description: "Chat completions, responses, embeddings and files at /v1, the messages protocol at /msgapi, generate-content at /v1beta, and the admin API at /admin.",
    },
    paths,
    components,
  };
}

/** Registered last: the document describes every route registered before it, built once on first request. */
export function openapiRoute(app: AnyElysia) {
  let cached: string | null = null;
  return new Elysia().get(
    OPENAPI_PATH,
    () => new Response((cached ??= JSON.stringify(openapiDocument(app))), { headers: { "Content-Type": "application/json" } }),
    { detail: { hide: true } },
  );
}
