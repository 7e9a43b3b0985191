// createApp(context) → Elysia. Never listens: main.ts serves it, tests call app.handle.
import { Elysia, type ValidationError } from "elysia";
import type { AppContext } from "./context";
import { corsPlugin } from "./http/cors";
import { GatewayError, errorResponse, errors, surfaceOfPath } from "./http/errors";
import { requestIdFor } from "./http/request-id";
import { requestState, setRequestState, type RequestState } from "./http/request-state";
import { adminDenial } from "./http/admin-auth";
import { surfacePlugins } from "./surfaces/register";
import { validationToGatewayError } from "./http/validation-error";
import { routeTemplate } from "./http/route-template";
import { openapiRoute } from "./http/openapi";

const PROBES = new Set(["/healthz", "/readyz"]);
const CLIENT_CLOSED_REQUEST = 499;

/** The headers every answer carries, errors included: CORS (set by the plugin) and the request id (D3.3). */
function carried(set: { headers: Record<string, unknown> }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(set.headers)) if (typeof v === "string") out[k] = v;
  return out;
}

export function createApp(ctx: AppContext) {
  const app = new Elysia({ normalize: false })
    .onRequest(({ request, set }) => {
      const url = new URL(request.url);
      const state: RequestState = {
        id: requestIdFor(request),
        start: performance.now(),
        url,
        surface: surfaceOfPath(url.pathname),
        quiet: PROBES.has(url.pathname),
        bodyTimeoutMs: ctx.bodyTimeoutMs,
      };
      setRequestState(request, state);
      set.headers["X-Request-Id"] = state.id;
      if (state.surface === "messages") set.headers["request-id"] = state.id;
    })
    // Before auth and routing (D3.2): a preflight is answered here, on any path, even while draining.
    .use(corsPlugin())
    .onRequest(({ request, set }) => {
      if (!ctx.lifecycle.draining || PROBES.has(new URL(request.url).pathname)) return;
      const state = requestState(request);
      const err = new GatewayError(503, "shutting_down", "The gateway is shutting down.");
      if (state) state.errorCode = err.code;
      return errorResponse(state?.surface ?? surfaceOfPath(new URL(request.url).pathname), err, carried(set));
    })
    // The logged route is the template Elysia matched (D3.6), known once parsing is over.
    .onTransform({ as: "global" }, ({ request, route }) => {
      const state = requestState(request);
      if (state) state.route = routeTemplate(route);
    })
    .onError({ as: "global" }, async ({ code, error: raised, request, route, set }) => {
      // A failure inside a parse hook (authentication, the body reader) arrives wrapped in a ParseError.
      const cause = code === "PARSE" ? (raised as { cause?: unknown }).cause : undefined;
      const error = cause instanceof GatewayError ? cause : raised;
      const state = requestState(request);
      if (state && route) state.route = routeTemplate(route);
      const surface = state?.surface ?? surfaceOfPath(new URL(request.url).pathname);
      const headers = carried(set);
      if (request.signal.aborted) {
        // The client left (or the runtime dropped its connection): a failure after that is the cancellation
        // itself, not a server error (D3.6 `aborted`). A client error found on the way (a broken body) keeps its
        // status; anything else is 499, the status proxies log for it. Nobody reads this response.
        if (state) state.aborted = true;
        if (!(error instanceof GatewayError && error.status < 500)) {
          if (state) state.errorCode = "client_closed_request";
          return new Response(null, { status: CLIENT_CLOSED_REQUEST, headers });
        }
      }
      let err: GatewayError;
      if (error instanceof GatewayError) err = error;
      else if (code === "NOT_FOUND") {
        // An unauthenticated caller learns nothing about which admin routes exist.
        // A guess on an unknown admin route counts toward the credential throttle like any other.
        err = (surface === "admin" ? await adminDenial(ctx, request) : null) ?? errors.notFound(`No route for ${request.method} ${new URL(request.url).pathname}.`);
      } else if (code === "PARSE") err = errors.invalidJson();
      else if (code === "VALIDATION") err = validationToGatewayError(raised as ValidationError);
      else {
        err = errors.internal(state?.id ?? "unknown");
        ctx.log.error("unhandled error", { request_id: state?.id, error: String((error as Error)?.stack ?? error) });
      }
      if (state) state.errorCode = err.code;
      return errorResponse(surface, err, headers);
    });

  for (const plugin of surfacePlugins(ctx)) app.use(plugin);
  app.use(openapiRoute(app));
  // The self test and raw-sample capture call the gateway in process (D11.8, D13.6).
  ctx.selfHandle = (request) => app.handle(request);
  return app;
}

export type App = ReturnType<typeof createApp>;
