// /healthz and /readyz (D1.5): no dependency checks; HEAD answers the same status without a body.
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
}
