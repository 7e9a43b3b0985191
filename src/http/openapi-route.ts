// GET /openapi.json and GET /admin/openapi.json (openapi.ts builds the documents). The generator
// (@elysiajs/openapi, with the zod it bundles) is imported on the first request for a document, not at start
// (issue 35): a start evaluated it for a document most processes never serve.
import { Elysia, type AnyElysia } from "elysia";
import type { AppContext } from "../context";
import type { OpenapiScope } from "./openapi";
import { requireAdmin } from "./admin-auth";

export const OPENAPI_PATH = "/openapi.json";
export const ADMIN_OPENAPI_PATH = "/admin/openapi.json";

/**
 * Registered last on the part that serves the scope's paths (app.ts): the document describes every route
 * registered before it, built once on first request.
 */
export function openapiRoute(app: AnyElysia, ctx: AppContext, scope: OpenapiScope, answers: (app: AnyElysia) => Promise<Record<string, unknown>>) {
  let cached: string | undefined;
  const answer = async () => {
    cached ??= JSON.stringify((await import("./openapi")).openapiDocument(app, scope, await answers(app)));
    return new Response(cached, { headers: { "Content-Type": "application/json" } });
  };
  if (scope === "public") return new Elysia().get(OPENAPI_PATH, answer, { detail: { hide: true } });
  return new Elysia().get(
    ADMIN_OPENAPI_PATH,
    async ({ request }) => {
      await requireAdmin(ctx, request);
      return answer();
    },
    { detail: { hide: true } },
  );
}
