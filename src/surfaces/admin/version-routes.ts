// GET /admin/version and GET /admin/version/releases (gateway.md, D15.9, D15.10): always 200; a feed problem
// is reported as check_error.
import type { AppContext } from "../../context";
import { json } from "../../http/json-response";
import type { AdminApp } from "../../http/admin-edge";
import { adminDoc } from "./route-docs";
import { isOn, ReleasesQuery, VersionQuery } from "./query-schema";

export function versionRoutes(app: AdminApp, ctx: AppContext): void {
  app.get(
    "/admin/version",
    async ({ query }) => json(await ctx.versionChecker.check(isOn(query.force))),
    { ...adminDoc("GET /admin/version"), admin: true, query: VersionQuery },
  );
  app.get(
    "/admin/version/releases",
    async ({ query }) => json(await ctx.versionChecker.releases(query.limit ?? 10, isOn(query.include_prereleases), isOn(query.force))),
    { ...adminDoc("GET /admin/version/releases"), admin: true, query: ReleasesQuery },
  );
}
