// /healthz and /readyz (D1.5): no dependency checks; HEAD answers the same status without a body.
// HEAD on a surface's base path answers 200 without a body: Claude Code sends one to its base URL at every
// start as a reachability check (issue 16 item 6).
import type { BusinessApp } from "../../http/business-edge";
import { publicDoc } from "../public-docs";
import type { AppContext } from "../../context";
import { json } from "../../http/json-response";

export function probeRoutes(app: BusinessApp, ctx: AppContext): void {
  const health = () => json({ status: "ok" });
  const ready = () => {
    if (ctx.lifecycle.draining) return json({ status: "draining" }, 503);
    if (!ctx.lifecycle.ready) return json({ status: "starting" }, 503);
    return json({ status: "ready" });
  };
  const head = (r: Response) => new Response(null, { status: r.status, headers: r.headers });
  app
    .get("/healthz", health, documented("health"))
    .head("/healthz", () => head(health()), documented("health"))
    .get("/readyz", ready, documented("ready"))
    .head("/readyz", () => head(ready()), documented("ready"));
  for (const base of SURFACE_BASES) app.head(base, () => new Response(null, { status: 200 }), documented("headBase"));
}

export const SURFACE_BASES = ["/", "/v1", "/v1beta", "/msgapi", "/msgapi/v1"];

type ProbeDoc = "health" | "ready" | "headBase";
/**
 * Only the entry's `detail`: a probe's documented answers reach the OpenAPI document through the generator's
 * `references`, like every public route's (public-docs.ts publicAnswerReferences, issue 35).
 */
const documented = (key: ProbeDoc) => publicDoc(key);
