// /healthz and /readyz (D1.5): no dependency checks; HEAD answers the same status without a body.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { json } from "../../http/json-response";

export function probeRoutes(ctx: AppContext) {
  const health = () => json({ status: "ok" });
  const ready = () => {
    if (ctx.lifecycle.draining) return json({ status: "draining" }, 503);
    if (!ctx.lifecycle.ready) return json({ status: "starting" }, 503);
    return json({ status: "ready" });
  };
  const head = (r: Response) => new Response(null, { status: r.status, headers: r.headers });
  return new Elysia()
    .get("/healthz", health)
    .head("/healthz", () => head(health()))
    .get("/readyz", ready)
    .head("/readyz", () => head(ready()));
}
