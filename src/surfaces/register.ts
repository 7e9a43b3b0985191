// The business and admin surfaces, registered in one place: each module returns an Elysia plugin and app.ts
// `use`s them in this order. A new module (the admin console, metrics…) is one more entry here.
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
import { adminPlugins } from "./admin/routes";
import { metricsRoutes } from "./metrics/routes";
import { consoleRoutes } from "../console/routes";

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
    ...adminPlugins(ctx),
    metricsRoutes(ctx),
    consoleRoutes(ctx),
  ];
}
