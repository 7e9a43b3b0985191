// Every admin route module, registered on the admin part after its one admin edge (credential gate, body parsers).
// The modules add their routes to the part itself rather than to Elysia instances of their own that the part then
// `use`s, which registered every route twice (surfaces/register.ts says why; issue 35). None declares a hook.
import type { AnyElysia } from "elysia";
import type { AppContext } from "../../context";
import { adminEdge, type AdminApp } from "../../http/admin-edge";
import { accountTestRoutes } from "./account-test-routes";
import { accountsRoutes } from "./accounts-routes";
import { adminAuthRoutes } from "./auth-routes";
import { configRoutes } from "./config-routes";
import { devRoutes } from "./dev-routes";
import { historyRoutes } from "./history-routes";
import { hostRoutes } from "./host-routes";
import { keysRoutes } from "./keys-routes";
import { proxiesRoutes } from "./proxies-routes";
import { settingsRoutes } from "./settings-routes";
import { versionRoutes } from "./version-routes";
import { usageRoutes } from "./usage-routes";
import { consoleStatusRoutes } from "./console-status-routes";
import { healthRoutes } from "./health-routes";
import { doctorRoutes } from "./doctor-routes";
import { requestsRoutes } from "./requests-routes";
import { keysViewRoutes } from "./keys-view-routes";
import { auditRoutes } from "./audit-routes";
import { trafficRoutes } from "./traffic-routes";
import { modelsViewRoutes } from "./models-view-routes";

export function registerAdminRoutes(part: AnyElysia, ctx: AppContext): AdminApp {
  // `use` adds the edge's parsers and macro to the part in place; the cast names the type that gives them.
  const app = part.use(adminEdge(ctx)) as unknown as AdminApp;
  adminAuthRoutes(app, ctx);
  configRoutes(app, ctx);
  settingsRoutes(app, ctx);
  keysRoutes(app, ctx);
  proxiesRoutes(app, ctx);
  // The test routes are static paths under /admin/accounts/; registered before the :id routes for clarity.
  accountTestRoutes(app, ctx);
  healthRoutes(app, ctx);
  doctorRoutes(app, ctx);
  accountsRoutes(app, ctx);
  historyRoutes(app, ctx);
  devRoutes(app, ctx);
  hostRoutes(app, ctx);
  versionRoutes(app, ctx);
  usageRoutes(app, ctx);
  consoleStatusRoutes(app, ctx);
  requestsRoutes(app, ctx);
  keysViewRoutes(app, ctx);
  auditRoutes(app, ctx);
  trafficRoutes(app, ctx);
  modelsViewRoutes(app, ctx);
  return app;
}
