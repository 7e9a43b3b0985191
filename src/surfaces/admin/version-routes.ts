// GET /admin/version and GET /admin/version/releases (gateway.md, D15.9, D15.10): always 200; a feed problem
// is reported as check_error.
import type { AppContext } from "../../context";
import { json, type RouteApp } from "../route-kit";
import { admin, intQuery } from "./admin-kit";

export function versionRoutes(app: RouteApp, ctx: AppContext) {
  const force = (url: URL) => ["1", "true"].includes(url.searchParams.get("force") ?? "");
  app.get(
    "/admin/version",
    admin(ctx, "/admin/version", async ({ request }) => json(await ctx.versionChecker.check(force(new URL(request.url))))),
  );
  app.get(
    "/admin/version/releases",
    admin(ctx, "/admin/version/releases", async ({ request }) => {
      const url = new URL(request.url);
      const limit = intQuery(url, "limit", 10, 1, 50);
      const pre = ["1", "true"].includes(url.searchParams.get("include_prereleases") ?? "");
      return json(await ctx.versionChecker.releases(limit, pre, force(url)));
    }),
  );
}
