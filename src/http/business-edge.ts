// The business edge as one Elysia plugin: the "business" body parser and the `business` macro that every
// business route declares. The macro authenticates before the body is read (a caller without a credential is
// told so, not made to upload 100 MiB first, and gets 401 even for a body that would not validate), then
// resolves `{ caller }` into the handler's context.
//
// Elysia runs parse → transform → validation → resolve. Authentication therefore sits in the first parse hook
// (routes with a body) and in transform (routes without one: GET/DELETE never parse); both go through
// `callerOf`, which authenticates once per request and remembers the answer on the request's context.
import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { authenticateBusiness, type Caller } from "./business-auth";
import { BUSINESS_BODY_LIMIT, readJsonObject } from "./body";

const CALLER = Symbol("business caller");

interface HasRequest {
  request: Request;
}

/** Runs before authentication, e.g. the generate surface's unknown-action 404 that must not need a key. */
export type BusinessPrecheck = (c: HasRequest & { params: Record<string, string> }) => void;

function callerOf(ctx: AppContext, c: HasRequest): Caller {
  const memo = c as HasRequest & { [CALLER]?: Caller };
  return (memo[CALLER] ??= authenticateBusiness(ctx, c.request));
}

/** One per app (each test builds its own app around its own context), used by every business route module. */
export function businessEdge(ctx: AppContext) {
  return new Elysia()
    // JSON whatever the Content-Type, limits while reading, strict UTF-8, depth limit (D3.4, D3.5).
    .parser("business", ({ request }) => readJsonObject(request, BUSINESS_BODY_LIMIT))
    .macro({
      business(precheck: true | BusinessPrecheck) {
        const before = (c: HasRequest & { params: Record<string, string> }) => {
          if (precheck !== true) precheck(c);
          callerOf(ctx, c);
        };
        return {
          // Elysia runs a named parser given by name in a hook list; its types only know functions there.
          parse: [before, "business" as unknown as typeof before],
          transform: before,
          resolve: (c: HasRequest) => ({ caller: callerOf(ctx, c) }),
        };
      },
    });
}
