// The admin edge as one Elysia plugin: the "admin" body parsers and the `admin` macro every admin route but
// login declares. As on the business edge, the credential is checked in the first parse hook (transform for
// bodiless routes), before the body is read or validated: an unauthenticated caller gets 401 whatever it
// sends, and learns nothing about which admin routes exist or what they accept.
import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { requireAdmin } from "./admin-auth";
import { ADMIN_BODY_LIMIT, readJsonObject, readOptionalJsonObject } from "./body";
import { requestState } from "./request-state";

export interface AdminRouteOptions {
  /** Polling endpoints log at debug (D3.6). */
  quiet?: boolean;
  /** /admin/verify takes only a JWT (D5.6). */
  jwtOnly?: boolean;
  /** Writes whose whole meaning is the body (config replace/import): an empty body is 400 invalid_json (D3.5). */
  bodyRequired?: boolean;
}

const CHECKED = Symbol("admin credential checked");

export function adminEdge(ctx: AppContext) {
  return new Elysia()
    // Admin bodies may be empty ({}); otherwise the business rules: limits, strict UTF-8, depth (D3.4, D3.5).
    // Parser names must be JavaScript identifiers: Elysia compiles them into variable names.
    .parser("admin", ({ request }) => readOptionalJsonObject(request, ADMIN_BODY_LIMIT))
    .parser("adminRequired", ({ request }) => readJsonObject(request, ADMIN_BODY_LIMIT))
    .macro({
      admin(options: true | AdminRouteOptions) {
        const opts = options === true ? {} : options;
        // Once per request, remembered on the Request; hooks destructure their context (see business-edge.ts).
        const gate = ({ request }: { request: Request }): Promise<void> => {
          const memo = request as Request & { [CHECKED]?: Promise<void> };
          return (memo[CHECKED] ??= (async () => {
            const state = requestState(request);
            if (state && opts.quiet) state.quiet = true;
            await requireAdmin(ctx, request, { jwtOnly: opts.jwtOnly });
          })());
        };
        return {
          // Elysia runs a named parser given by name in a hook list; its types only know functions there.
          parse: [gate, (opts.bodyRequired ? "adminRequired" : "admin") as unknown as typeof gate],
          transform: gate,
          resolve: ({ request }: { request: Request }) => ({ url: requestState(request)?.url ?? new URL(request.url) }),
        };
      },
    });
}
