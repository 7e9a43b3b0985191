// /healthz and /readyz (D1.5): no dependency checks; HEAD answers the same status without a body.
// HEAD on a surface's base path answers 200 without a body: Claude Code sends one to its base URL at every
// start as a reachability check (issue 16 item 6).
import { Elysia } from "elysia";
import { publicDoc } from "../public-docs";
import type { AppContext } from "../../context";
import { json } from "../../http/json-response";
import type { DocumentedAnswers } from "../../http/openapi";

export function probeRoutes(ctx: AppContext) {
  const health = () => json({ status: "ok" });
  const ready = () => {
    if (ctx.lifecycle.draining) return json({ status: "draining" }, 503);
    if (!ctx.lifecycle.ready) return json({ status: "starting" }, 503);
    return json({ status: "ready" });
  };
  const head = (r: Response) => new Response(null, { status: r.status, headers: r.headers });
  const app = new Elysia()
    .get("/healthz", health, documented("health"))
    .head("/healthz", () => head(health()), documented("health"))
    .get("/readyz", ready, documented("ready"))
    .head("/readyz", () => head(ready()), documented("ready"));
  for (const base of SURFACE_BASES) app.head(base, () => new Response(null, { status: 200 }), documented("headBase"));
  return app;
}

export const SURFACE_BASES = ["/", "/v1", "/v1beta", "/msgapi", "/msgapi/v1"];

type ProbeDoc = "health" | "ready" | "headBase";
/**
 * The probes' documented answers are not given to Elysia: it TypeBox-compiles a route's answer schemas when it
 * composes the route (the first /readyz after a start, issue 35), to check answers that are never checked here —
 * every probe answers a Response, which Elysia passes through unchecked. The OpenAPI document gets them back
 * through the generator's `references` (PROBE_ANSWERS, given by app.ts), so it is unchanged.
 */
const documented = (key: ProbeDoc) => ({ detail: publicDoc(key).detail });

const answersOf = (key: ProbeDoc) => publicDoc(key).response as Record<number, unknown>;
/** path → method → { response }: the generator's `references` shape; app.ts hands it to the public document. */
export const PROBE_ANSWERS: DocumentedAnswers = {
  "/healthz": { get: { response: answersOf("health") }, head: { response: answersOf("health") } },
  "/readyz": { get: { response: answersOf("ready") }, head: { response: answersOf("ready") } },
  ...Object.fromEntries(SURFACE_BASES.map((base) => [base, { head: { response: answersOf("headBase") } }])),
};
