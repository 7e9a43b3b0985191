// Small helpers shared by route modules. Routes are registered on the one Elysia app through this narrow
// interface, so a route module states exactly what it uses of a request.

export interface RouteCtx {
  request: Request;
  params: Record<string, string>;
}

export type RouteHandler = (c: RouteCtx) => unknown;

export interface RouteApp {
  get(path: string, handler: RouteHandler, opts?: object): unknown;
  head(path: string, handler: RouteHandler, opts?: object): unknown;
  post(path: string, handler: RouteHandler, opts?: object): unknown;
  put(path: string, handler: RouteHandler, opts?: object): unknown;
  delete(path: string, handler: RouteHandler, opts?: object): unknown;
}

/** Body parsing is ours (limits, D3.4; JSON whatever the Content-Type, D3.5): Elysia must not read it. */
export const RAW_BODY = { parse: "none" } as const;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
}
