// Hosting sync (gateway.md "Hosting sync", D14): pre-configuration, sync, and drift status.
import type { AppContext } from "../../context";
import { keepOpen } from "../../context";
import type { Config } from "../../config/schema";
import { validateConfig } from "../../config/validate";
import { hostPreconfig, hostStatus, hostSync } from "../../store/host-sync";
import { json, RAW_BODY, type RouteApp } from "../route-kit";
import { admin, badRequest, optBoolean, optString, readBody, writeInfo } from "./admin-kit";

export interface HostRouteOptions {
  /** D14.2's pause between account logins; tests shorten it. */
  loginGapMs?: number;
}

export function hostRoutes(app: RouteApp, ctx: AppContext, opts: HostRouteOptions = {}): void {
  app.get("/admin/host/config", admin(ctx, "/admin/host/config", () => json(hostPreconfig(ctx.env))));

  app.post(
    "/admin/host/sync",
    admin(ctx, "/admin/host/sync", async ({ request }) => {
      keepOpen(ctx, request);
      const body = await readBody(request);
      const result = await hostSync(
        ctx,
        {
          host_token: optString(body, "host_token"),
          project_id: optString(body, "project_id"),
          team_id: optString(body, "team_id"),
          auto_validate: optBoolean(body, "auto_validate", true),
          save_credentials: optBoolean(body, "save_credentials", true),
        },
        { loginGapMs: opts.loginGapMs },
      );
      return json({ ...result, ...writeInfo(ctx.config.writeStatus()) });
    }),
    RAW_BODY,
  );

  app.get("/admin/host/status", admin(ctx, "/admin/host/status", () => json(hostStatus(ctx))));

  app.post(
    "/admin/host/status",
    admin(ctx, "/admin/host/status", async ({ request }) => {
      const body = await readBody(request);
      let draft: Config | undefined;
      if (body.config_override !== undefined && body.config_override !== null) {
        const r = validateConfig(body.config_override);
        if (!r.ok) throw badRequest(`config_override: ${r.field}: ${r.problem}`);
        draft = r.config;
      }
      return json(hostStatus(ctx, draft));
    }),
    RAW_BODY,
  );
}
