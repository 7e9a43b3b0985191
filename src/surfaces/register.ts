// The business and admin surfaces, registered in one place.
import type { AppContext } from "../context";
import type { RouteApp } from "./route-kit";
import { adminRoutes } from "./admin/routes";

export function registerSurfaces(app: RouteApp, ctx: AppContext): void {
  adminRoutes(app, ctx);
}
