// GET /openapi.json: the OpenAPI 3.1 document generated from the routes' TypeBox schemas by @elysiajs/openapi's
// generator. Only the JSON document is served: the plugin's HTML pages load their scripts from a CDN and the
// binary must work offline. The generator lists a request body only under the content types of Elysia's
// built-in parsers; our routes parse JSON with the named "business"/"admin" parsers (JSON whatever the
// Content-Type, D3.5), so their body schemas are put under application/json here.
// Two documents (issue 30 item 8): /openapi.json describes the public API and needs no credential;
// /admin/openapi.json describes the admin API and asks for the admin credential like every admin route.
import type { AnyElysia } from "elysia";
import { toOpenAPISchema } from "@elysiajs/openapi";
import { VERSION } from "../version";
import { SECURITY_SCHEMES } from "./openapi-doc";

export { OPENAPI_PATH, ADMIN_OPENAPI_PATH } from "./openapi-route";

export type OpenapiScope = "public" | "admin";

const isAdminPath = (path: string) => path === "/admin" || path.startsWith("/admin/");

const DESCRIPTIONS: Record<OpenapiScope, string> = {
  public:
    "Chat completions, responses, embeddings and files at /v1, the messages protocol at /msgapi and generate-content at /v1beta. The admin API is described at /admin/openapi.json (admin credential required).",
  admin: "The admin API at /admin (admin key or console JWT as a Bearer). The public API is described at /openapi.json.",
};
const OPENAPI_VERSION = "3.1.0";

type Media = Record<string, { schema?: { contentMediaType?: string } }>;
type Operation = { requestBody?: { content?: Record<string, unknown> }; responses?: Record<string, { description?: string; content?: Media }> };

/**
 * The generator files a string answer under text/plain; one that names its media type (openapi-doc.ts
 * textAnswer: HTML, CSS, CSV, the Prometheus text) is filed under that type. A bodiless answer (HEAD) has no
 * content at all.
 */
function fileAnswers(op: Operation, method: string) {
  if (method === "head") {
    op.responses = { "200": { description: "The same status and headers as GET, without a body." } };
    return;
  }
  for (const answer of Object.values(op.responses ?? {})) {
    const plain = answer.content?.["text/plain"];
    const type = plain?.schema?.contentMediaType;
    if (plain && type) answer.content = { [type]: plain };
  }
}

/** `/v1/responses/:id` → `/v1/responses/{id}`, as the generator writes paths. */
const openapiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");

/** The gateway's app (app.ts), whose public and admin routes are two Elysia instances. */
export interface ScopedApp {
  partFor(scope: OpenapiScope): AnyElysia;
}

/**
 * `answers`: the generator's `references` (path → method → { response }) for routes whose documented answers are
 * not on the route — the public routes' (surfaces/public-docs.ts publicAnswersFor, issue 35).
 */
export function openapiDocument(from: AnyElysia | ScopedApp, scope: OpenapiScope = "public", answers: Record<string, unknown> = {}) {
  const app = "partFor" in from ? from.partFor(scope) : from;
  const references = [answers as never];
  const { paths: all, components } = toOpenAPISchema(app, undefined, references, undefined, OPENAPI_VERSION);
  const paths = Object.fromEntries(Object.entries(all).filter(([path]) => isAdminPath(path) === (scope === "admin")));
  for (const route of app.routes) {
    const body = route.hooks?.body;
    if (!body || typeof body === "string") continue;
    const op = (paths[openapiPath(route.path)] as Record<string, Operation> | undefined)?.[route.method.toLowerCase()];
    if (op?.requestBody && Object.keys(op.requestBody.content ?? {}).length === 0) op.requestBody.content = { "application/json": { schema: body } };
  }
  for (const ops of Object.values(paths) as Record<string, Operation>[]) for (const [method, op] of Object.entries(ops)) fileAnswers(op, method);
  return {
    openapi: OPENAPI_VERSION,
    info: { title: scope === "admin" ? "svc-gateway admin API" : "svc-gateway", version: VERSION, description: DESCRIPTIONS[scope] },
    paths,
    components: { ...components, securitySchemes: SECURITY_SCHEMES },
  };
}
