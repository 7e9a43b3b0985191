// /healthz and /readyz (D1.5): no dependency checks; HEAD answers the same status without a body.
// HEAD on a surface's base path answers 200 without a body: Claude Code sends one to its base URL at every
// start as a reachability check (issue 16 item 6).
import type { AppContext } from "../../context";
import { json, type RouteApp } from "../route-kit";

export function probeRoutes(app: RouteApp, ctx: AppContext) {
  const health = () => json({ status: "ok" });
  const ready = () => {
    if (ctx.lifecycle.draining) return json({ status: "draining" }, 503);
    if (!ctx.lifecycle.ready) return json({ status: "starting" }, 503);
    return json({ status: "ready" });
  };
  const head = (r: Response) => new Response(null, { status: r.status, headers: r.headers });
  app.get("/healthz", health);
  app.head("/healthz", () => head(health()));
  app.get("/readyz", ready);
  app.head("/readyz", () => head(ready()));
  for (const base of SURFACE_BASES) app.head(base, () => new Response(null, { status: 200 }));
}

export const SURFACE_BASES = ["/", "/v1", "/v1beta", "/msgapi", "/msgapi/v1"];
