// The business and admin surfaces, registered in one place.
import type { AppContext } from "../context";
import type { RouteApp } from "./route-kit";
import { adminRoutes } from "./admin/routes";
import { chatRoutes } from "./chat/routes";
import { responsesRoutes } from "./responses/routes";
import { embeddingsRoutes } from "./embeddings/routes";
import { messagesRoutes } from "./messages/routes";
import { generateRoutes } from "./generate/routes";
import { filesRoutes } from "./files/routes";
import { versionRoutes } from "./admin/version-routes";
import { consoleStatusRoutes } from "./admin/console-status-routes";
import { consoleRoutes } from "../console/routes";

export function registerSurfaces(app: RouteApp, ctx: AppContext): void {
  chatRoutes(app, ctx);
  responsesRoutes(app, ctx);
  embeddingsRoutes(app, ctx);
  messagesRoutes(app, ctx);
  generateRoutes(app, ctx);
  filesRoutes(app, ctx);
  adminRoutes(app, ctx);
  versionRoutes(app, ctx);
  consoleStatusRoutes(app, ctx);
  consoleRoutes(app, ctx);
}
