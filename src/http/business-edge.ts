// The business edge as one Elysia plugin: the "business" body parser and the `business` macro that every
// business route declares. The macro authenticates before the body is read (a caller without a credential is
// told so, not made to upload 100 MiB first, and gets 401 even for a body that would not validate), then
// resolves `{ caller }` into the handler's context.
//
// Elysia runs parse → transform → validation → resolve. Authentication therefore sits in the first parse hook
// (routes with a body) and in transform (routes without one: GET/DELETE never parse); both go through
// `callerOf`, which authenticates once per request and remembers the answer on the request's state.
import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { authenticateBusiness } from "./business-auth";
import type { Caller } from "../accounts/caller";
import { BUSINESS_BODY_LIMIT, readJsonObject, readOptionalJsonObject } from "./body";
import { bodyTimeoutOf } from "./body-deadline";
import { requestStateSlot } from "./request-state";
import type { RequestState } from "../metering/request-state";

/** Runs before authentication, e.g. the generate surface's unknown-action 404 that must not need a key. */
export type BusinessPrecheck = (c: { params: Record<string, string> }) => void;

/**
 * Once per request: the answer is remembered on the request's state. Hooks destructure their context
 * (`{ request, reqState }`) rather than take it whole: Elysia reads which context fields a hook uses and skips
 * the others (a hook taking `c` whole makes it parse cookies and query on every request).
 */
function callerOf(ctx: AppContext, request: Request, state: RequestState): Caller {
  return (state.auth ??= authenticateBusiness(ctx, request, state));
}

const BODILESS = new Set(["GET", "HEAD", "DELETE"]);

/**
 * The business part as the route modules see it: the edge's parser and macro, the request's state. Used once on
 * the business part (surfaces/register.ts), whose routes the modules then add in place.
 */
export type BusinessApp = ReturnType<typeof businessEdge>;

/** One per app (each test builds its own app around its own context). */
export function businessEdge(ctx: AppContext) {
  return new Elysia()
    .use(requestStateSlot)
    // JSON whatever the Content-Type, limits while reading, strict UTF-8, depth limit (D3.4, D3.5).
    // A bodiless method (DELETE /v1/responses/{id}, GET) may still carry a JSON Content-Type, as SDKs send one on
    // every call: Elysia then parses it, and its empty body is no JSON error.
    .parser("business", ({ request }) =>
      BODILESS.has(request.method) ? readOptionalJsonObject(request, BUSINESS_BODY_LIMIT, bodyTimeoutOf(ctx)) : readJsonObject(request, BUSINESS_BODY_LIMIT, bodyTimeoutOf(ctx)),
    )
    .macro({
      business(precheck: true | BusinessPrecheck) {
        type Hook = (c: { request: Request; params: Record<string, string>; reqState: RequestState }) => void;
        const before: Hook =
          precheck === true
            ? ({ request, reqState }) => {
                callerOf(ctx, request, reqState);
              }
            : ({ request, params, reqState }) => {
                precheck({ params });
                callerOf(ctx, request, reqState);
              };
        return {
          // Elysia runs a named parser given by name in a hook list; its types only know functions there.
          parse: [before, "business" as unknown as Hook],
          transform: before,
          resolve: ({ request, reqState }: { request: Request; reqState: RequestState }) => ({ caller: callerOf(ctx, request, reqState) }),
        };
      },
    });
}
