// Every admin route module but login/verify/password (which app.ts registers), in one call.
import type { AppContext } from "../../context";
import type { RouteApp } from "../route-kit";
import { accountTestRoutes } from "./account-test-routes";
import { accountsRoutes } from "./accounts-routes";
import { configRoutes } from "./config-routes";
import { devRoutes } from "./dev-routes";
import { historyRoutes } from "./history-routes";
import { hostRoutes } from "./host-routes";
import { keysRoutes } from "./keys-routes";
import { proxiesRoutes } from "./proxies-routes";
import { settingsRoutes } from "./settings-routes";
import { usageRoutes } from "./usage-routes";

export function adminRoutes(app: RouteApp, ctx: AppContext): void {
  configRoutes(app, ctx);
  settingsRoutes(app, ctx);
  keysRoutes(app, ctx);
  proxiesRoutes(app, ctx);
  // The test routes are static paths under /admin/accounts/; registered before the :id routes for clarity.
  accountTestRoutes(app, ctx);
  accountsRoutes(app, ctx);
  historyRoutes(app, ctx);
  devRoutes(app, ctx);
  hostRoutes(app, ctx);
  usageRoutes(app, ctx);
}
