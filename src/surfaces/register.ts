// The business surfaces, registered in one place: each module returns an Elysia plugin and app.ts `use`s them in
// this order on the app's business part. The admin API and console are registered in admin-register.ts, on the
// admin part that app.ts builds on the first /admin request (issue 35). A new module is one more entry in one
// of the two lists: this one for paths outside /admin, admin-register.ts for /admin paths.
import type { AnyElysia } from "elysia";
import type { AppContext } from "../context";
import { businessEdge } from "../http/business-edge";
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

export function surfacePlugins(ctx: AppContext): AnyElysia[] {
  const edge = businessEdge(ctx);
  return [
    probeRoutes(ctx),
    modelRoutes(ctx),
    chatRoutes(ctx, edge),
    responsesRoutes(ctx, edge),
    embeddingsRoutes(ctx, edge),
    messagesRoutes(ctx, edge),
    generateRoutes(ctx, edge),
    filesRoutes(ctx, edge),
    metricsRoutes(ctx),
    landingRoutes(ctx),
  ];
}
