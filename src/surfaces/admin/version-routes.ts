// GET /admin/version and GET /admin/version/releases (gateway.md, D15.9, D15.10): always 200; a feed problem
// is reported as check_error.
import type { AppContext } from "../../context";
import { Elysia } from "elysia";
import { json } from "../../http/json-response";
import type { adminEdge } from "../../http/admin-edge";
import { intQuery } from "./admin-kit";
import { adminDoc } from "./route-docs";

export function versionRoutes(ctx: AppContext, edge: ReturnType<typeof adminEdge>) {
  const app = new Elysia().use(edge);
  const force = (url: URL) => ["1", "true"].includes(url.searchParams.get("force") ?? "");
  app.get(
    "/admin/version",
    async ({ url }) => json(await ctx.versionChecker.check(force(url))),
    { ...adminDoc("GET /admin/version"), admin: true },
  );
  app.get(
    "/admin/version/releases",
    async ({ url }) => {
      const limit = intQuery(url, "limit", 10, 1, 50);
      const pre = ["1", "true"].includes(url.searchParams.get("include_prereleases") ?? "");
      return json(await ctx.versionChecker.releases(limit, pre, force(url)));
    },
    { ...adminDoc("GET /admin/version/releases"), admin: true },
  );
  return app;
}
