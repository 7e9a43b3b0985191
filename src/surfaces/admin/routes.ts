// Every admin route module, as Elysia plugins sharing one admin edge (credential gate, body parsers).
import type { AnyElysia } from "elysia";
import type { AppContext } from "../../context";
import { adminEdge } from "../../http/admin-edge";
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

export function adminPlugins(ctx: AppContext): AnyElysia[] {
  const edge = adminEdge(ctx);
  return [
    adminAuthRoutes(ctx, edge),
    configRoutes(ctx, edge),
    settingsRoutes(ctx, edge),
    keysRoutes(ctx, edge),
    proxiesRoutes(ctx, edge),
    // The test routes are static paths under /admin/accounts/; registered before the :id routes for clarity.
    accountTestRoutes(ctx, edge),
    healthRoutes(ctx, edge),
    doctorRoutes(ctx, edge),
    accountsRoutes(ctx, edge),
    historyRoutes(ctx, edge),
    devRoutes(ctx, edge),
    hostRoutes(ctx, edge),
    versionRoutes(ctx, edge),
    usageRoutes(ctx, edge),
    consoleStatusRoutes(ctx, edge),
    requestsRoutes(ctx, edge),
    keysViewRoutes(ctx, edge),
    auditRoutes(ctx, edge),
    trafficRoutes(ctx, edge),
    modelsViewRoutes(ctx, edge),
  ];
}
