// The admin API and the console's /admin pages: every path under /admin. app.ts imports this module on the first
// request to such a path, so that a start evaluates none of the admin modules and their schemas and Elysia
// registers none of their routes (issue 35: ≈ 25 ms of a cold start, before /readyz could answer).
import type { AnyElysia } from "elysia";
import type { AppContext } from "../context";
import { registerAdminRoutes } from "./admin/routes";
import { consoleRoutes } from "../console/routes";

/** Adds the admin routes and the console's pages to the admin part. */
export function registerAdmin(part: AnyElysia, ctx: AppContext): void {
  consoleRoutes(registerAdminRoutes(part, ctx));
}
