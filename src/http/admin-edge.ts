// The admin edge as one Elysia plugin: the "admin" body parsers and the `admin` macro every admin route but
// login declares. As on the business edge, the credential is checked in the first parse hook (transform for
// bodiless routes), before the body is read or validated: an unauthenticated caller gets 401 whatever it
// sends, and learns nothing about which admin routes exist or what they accept.
import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { requireAdmin } from "./admin-auth";
import { ADMIN_BODY_LIMIT, readJsonObject, readOptionalJsonObject } from "./body";
import { bodyTimeoutOf } from "./body-deadline";
import { requestStateSlot } from "./request-state";
import type { RequestState } from "../metering/request-state";

export interface AdminRouteOptions {
  /** Polling endpoints log at debug (D3.6). */
  quiet?: boolean;
  /** /admin/verify takes only a JWT (D5.6). */
  jwtOnly?: boolean;
  /** Writes whose whole meaning is the body (config replace/import): an empty body is 400 invalid_json (D3.5). */
  bodyRequired?: boolean;
}

/** The admin part as the route modules see it: the edge's parsers and macro, the request's state (admin/routes.ts). */
export type AdminApp = ReturnType<typeof adminEdge>;

export function adminEdge(ctx: AppContext) {
  return new Elysia()
    .use(requestStateSlot)
    // Admin bodies may be empty ({}); otherwise the business rules: limits, strict UTF-8, depth (D3.4, D3.5).
    // Parser names must be JavaScript identifiers: Elysia compiles them into variable names.
    .parser("admin", ({ request }) => readOptionalJsonObject(request, ADMIN_BODY_LIMIT, bodyTimeoutOf(ctx)))
    .parser("adminRequired", ({ request }) => readJsonObject(request, ADMIN_BODY_LIMIT, bodyTimeoutOf(ctx)))
    .macro({
      admin(options: true | AdminRouteOptions) {
        const opts = options === true ? {} : options;
        // Once per request, remembered on the request's state; hooks destructure their context (see business-edge.ts).
        // An async function, so that Elysia awaits it in transform too (it decides from the function's kind).
        const gate = async ({ request, reqState }: { request: Request; reqState: RequestState }): Promise<void> => {
          if (opts.quiet) reqState.quiet = true;
          await (reqState.adminCheck ??= requireAdmin(ctx, request, { jwtOnly: opts.jwtOnly }));
        };
        return {
          // Elysia runs a named parser given by name in a hook list; its types only know functions there.
          parse: [gate, (opts.bodyRequired ? "adminRequired" : "admin") as unknown as typeof gate],
          transform: gate,
          resolve: ({ reqState }: { reqState: RequestState }) => ({ url: reqState.url }),
        };
      },
    });
}
