// createApp(context) → the gateway's app (GatewayApp). Never listens: server.ts serves it, tests call app.handle.
// First: t.Integer compiled on first use, before the schema modules below declare theirs (issue 35).
import "./http/elysia-integer";
import { Elysia, type AnyElysia, type ValidationError } from "elysia";
import { clientIp, type AppContext } from "./context";
import { corsPlugin, preflightHeaders } from "./http/cors";
import { errorResponse, errors, surfaceOfPath } from "./http/errors";
import { GatewayError } from "./util/gateway-error";
import { requestIdFor } from "./http/request-id";
import { requestStateSlot } from "./http/request-state";
import { RequestState } from "./metering/request-state";
import { adminDenial } from "./http/admin-auth";
import { registerSurfaces } from "./surfaces/register";
import { validationToGatewayError } from "./http/validation-error";
import { routeTemplate } from "./http/route-template";
import { openapiRoute } from "./http/openapi-route";
import { publicAnswersFor } from "./surfaces/public-docs";
import type { ScopedApp } from "./http/openapi";
import { logOrMeter, writeAccessLog } from "./http/access-log";

const PROBES = new Set(["/healthz", "/readyz"]);
const CLIENT_CLOSED_REQUEST = 499;
/** Marks a Request the app calls itself in process (ctx.selfHandle): it gets no access log line. */
const IN_PROCESS = Symbol("in-process request");

/** The headers every answer carries, errors included: CORS (set by the plugin) and the request id (D3.3). */
function carried(set: { headers: Record<string, unknown> }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k in set.headers) {
    const v = set.headers[k];
    if (typeof v === "string") out[k] = v;
  }
  return out;
}

/**
 * The context's headers (the request id, CORS) put on a route's Response itself, the way Elysia's own mapping
 * merges them (the Response's headers win; `mergeHeaders` in Elysia's adapter), and the context's emptied: with
 * no header or status left to merge, Elysia hands the Response on as it is. Otherwise, on every answer, it
 * copied the headers into a new Headers and made a new Response around `response.body` — a ReadableStream
 * wrapped around the body, for the same bytes on the wire. Only the plain case: status 200 on the context, no
 * cookie, string values (anything else still goes through Elysia).
 */
function carryInto(value: unknown, set: { headers: Record<string, unknown>; status?: unknown; cookie?: unknown }): void {
  if (!(value instanceof Response) || set.status !== 200 || set.cookie !== undefined) return;
  const from = set.headers;
  for (const k in from) if (typeof from[k] !== "string" || k === "set-cookie") return;
  const to = value.headers;
  try {
    for (const k in from) if (!to.has(k)) to.set(k, from[k] as string);
  } catch {
    // Immutable headers (a Response straight from fetch): Elysia merges them into a new Response, as before.
    return;
  }
  set.headers = {};
}

/**
 * The gateway's app: two Elysia instances with the same hooks. The business part serves every path outside
 * /admin and is built at start; the admin part (the admin API, the console, /admin/openapi.json) is imported and
 * built on the first request to an /admin path, so a start evaluates none of its modules and registers none of
 * its ≈ 65 routes (issue 35). A path belongs to the admin part when it starts with "/admin", the same test that
 * gives an answer the admin error shape (errors.ts surfaceOfPath), so an unknown /admin path is refused there
 * as before (adminDenial). Never listens: server.ts serves `handle`, tests call it.
 */
export interface GatewayApp extends ScopedApp {
  handle(request: Request): Promise<Response>;
  /** The routes registered so far: the admin part's only once it is built. */
  readonly routes: AnyElysia["routes"];
  /** Builds the admin part now (tests that read every route; harmless when built). */
  loadAdmin(): Promise<void>;
}

export function createApp(ctx: AppContext): GatewayApp {
  const business = appShell(ctx);
  registerSurfaces(business, ctx);
  business.use(openapiRoute(business, ctx, "public", publicAnswersFor));
  let admin: AnyElysia | undefined;
  let building: Promise<AnyElysia> | undefined;
  const buildAdmin = () =>
    (building ??= import("./surfaces/admin-register").then(
      ({ registerAdmin }) => {
        const part = appShell(ctx);
        registerAdmin(part, ctx);
        part.use(openapiRoute(part, ctx, "admin", publicAnswersFor));
        return (admin = part);
      },
      (e) => {
        building = undefined;
        throw e;
      },
    ));
  const handle = (request: Request): Promise<Response> => {
    if (!isAdminUrl(request.url)) return business.handle(request);
    if (admin) return admin.handle(request);
    return buildAdmin().then(
      (part) => part.handle(request),
      (e) => {
        ctx.log.error("admin routes failed to load", { error: String((e as Error)?.stack ?? e) });
        return errorResponse("admin", errors.internal(requestIdFor(request)), {});
      },
    );
  };
  // The self test and raw-sample capture call the gateway in process (D11.8, D13.6).
  ctx.selfHandle = (request) => {
    (request as Request & { [IN_PROCESS]?: true })[IN_PROCESS] = true;
    return handle(request);
  };
  return {
    handle,
    get routes() {
      return admin ? [...business.routes, ...admin.routes] : business.routes;
    },
    async loadAdmin() {
      await buildAdmin();
    },
    partFor(scope) {
      if (scope === "public") return business;
      if (!admin) throw new Error("the admin part is not built yet: await loadAdmin() first");
      return admin;
    },
  };
}

/** The path of a request's URL starts with /admin (cut as the onRequest hook and Elysia's router cut it). */
function isAdminUrl(href: string): boolean {
  const s = href.indexOf("/", 11);
  return s !== -1 && href.startsWith("/admin", s);
}

/** A part of the app: the gateway's hooks (request state, CORS, draining, errors, the access log), no routes. */
function appShell(ctx: AppContext) {
  return new Elysia({ normalize: false })
    .use(requestStateSlot)
    // The request's facts, on the context every later hook and the handler receive (request-state.ts). The path
    // and query are cut from request.url as Elysia's router cuts them (route-url.ts): no URL is parsed here.
    .onRequest((c) => {
      const request = c.request;
      const href = request.url;
      const s = href.indexOf("/", 11);
      const qi = s === -1 ? -1 : href.indexOf("?", s + 1);
      const path = s === -1 ? "/" : qi === -1 ? href.slice(s) : href.slice(s, qi);
      const state = new RequestState(
        requestIdFor(request),
        href,
        path,
        qi === -1 ? "" : href.slice(qi),
        surfaceOfPath(path),
        IN_PROCESS in request,
        PROBES.has(path),
      );
      c.reqState = state;
      state.clientIp = ctx.server ? clientIp(ctx, request) : "";
      c.set.headers["X-Request-Id"] = state.id;
      if (state.surface === "messages") c.set.headers["request-id"] = state.id;
      if (request.method === "OPTIONS") {
        preflightHeaders(request, c.set.headers);
        // @elysiajs/cors answers a preflight from its own onRequest hook (next), before any route or mapResponse
        // hook: its line is written here. It answers every OPTIONS request, with 204.
        writeAccessLog(ctx, request, state, 204);
      }
    })
    // Before auth and routing (D3.2): a preflight is answered here, on any path, even while draining.
    .use(corsPlugin())
    .onRequest(({ reqState }) => {
      // Thrown, not returned: the refusal goes through onError like any other, and is logged there.
      if (ctx.lifecycle.draining && !PROBES.has(reqState.path)) throw new GatewayError(503, "shutting_down", "The gateway is shutting down.");
    })
    .onError({ as: "global" }, async ({ code, error: raised, request, route, set, reqState: state }) => {
      // A failure inside a parse hook (authentication, the body reader) arrives wrapped in a ParseError.
      const cause = code === "PARSE" ? (raised as { cause?: unknown }).cause : undefined;
      const error = cause instanceof GatewayError ? cause : raised;
      const headers = carried(set);
      // No route: an unknown path, or a refusal thrown by an onRequest hook. No mapResponse hook sees this
      // answer, so its access log line is written here (access-log.ts).
      const answer = (response: Response) => {
        if (!route) writeAccessLog(ctx, request, state, response.status);
        return response;
      };
      if (request.signal.aborted) {
        // The client left (or the runtime dropped its connection): a failure after that is the cancellation
        // itself, not a server error (D3.6 `aborted`). A client error found on the way (a broken body) keeps its
        // status; anything else is 499, the status proxies log for it. Nobody reads this response.
        state.aborted = true;
        if (!(error instanceof GatewayError && error.status < 500)) {
          state.errorCode = "client_closed_request";
          return answer(new Response(null, { status: CLIENT_CLOSED_REQUEST, headers }));
        }
      }
      let err: GatewayError;
      if (error instanceof GatewayError) err = error;
      else if (code === "NOT_FOUND") {
        // An unauthenticated caller learns nothing about which admin routes exist.
        // A guess on an unknown admin route counts toward the credential throttle like any other.
        err = (state.surface === "admin" ? await adminDenial(ctx, request) : null) ?? errors.notFound(`No route for ${request.method} ${state.path}.`);
      } else if (code === "PARSE") err = errors.invalidJson();
      else if (code === "VALIDATION") err = validationToGatewayError(raised as ValidationError);
      else {
        err = errors.internal(state.id);
        ctx.log.error("unhandled error", { request_id: state.id, error: String((error as Error)?.stack ?? error) });
      }
      state.errorCode = err.code;
      state.errorMessage = err.message;
      return answer(errorResponse(state.surface, err, headers));
    })
    // Every answer a route gives, a thrown error's included: logged now, or metered and logged when its stream
    // ends. The logged route is the template Elysia matched (D3.6), unless the route named its own.
    .mapResponse({ as: "global" }, ({ request, route, responseValue, set, reqState }) => {
      reqState.route ??= routeTemplate(route);
      const mapped = logOrMeter(ctx, request, reqState, responseValue, set.status);
      carryInto(mapped ?? responseValue, set);
      return mapped;
    });
}
