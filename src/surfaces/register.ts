// The business surfaces, registered in one place: app.ts hands its business part to `registerSurfaces`, which
// adds the business edge (parser, `business` macro) to it once and then each module's routes, in this order. The
// admin API and console are registered in admin-register.ts, on the admin part that app.ts builds on the first
// /admin request (issue 35). A new module is one more line in one of the two places: this one for paths outside
// /admin, admin-register.ts for /admin paths.
//
// The modules add their routes to the part itself, not to an Elysia instance of their own that the part then
// `use`s: merging a plugin registers each of its routes a second time (`add` and `mergeHook` again), which was
// ≈ 2 ms of a cold start (issue 35). None of these modules declares a hook of its own, so nothing they register
// reaches a route of another module: the edge's `business` macro acts only on routes that name it.
import type { AnyElysia } from "elysia";
import type { AppContext } from "../context";
import { businessEdge, type BusinessApp } from "../http/business-edge";
import { probeRoutes } from "./probes/routes";
import { modelRoutes } from "./models/routes";
import { chatRoutes } from "./chat/routes";
import { responsesRoutes } from "./responses/routes";
import { embeddingsRoutes } from "./embeddings/routes";
import { messagesRoutes } from "./messages/routes";
import { generateRoutes } from "./generate/routes";
import { filesRoutes } from "./files/routes";
import { metricsRoutes } from "./metrics/routes";
import { landingRoutes } from "../console/routes";

export function registerSurfaces(part: AnyElysia, ctx: AppContext): void {
  // `use` adds the edge's parser and macro to the part in place; the cast names the type that gives them.
  const app = part.use(businessEdge(ctx)) as unknown as BusinessApp;
  probeRoutes(app, ctx);
  modelRoutes(app, ctx);
  chatRoutes(app, ctx);
  responsesRoutes(app, ctx);
  embeddingsRoutes(app, ctx);
  messagesRoutes(app, ctx);
  generateRoutes(app, ctx);
  filesRoutes(app, ctx);
  metricsRoutes(app, ctx);
  landingRoutes(app);
}
