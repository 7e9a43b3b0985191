// Hosting sync (gateway.md "Hosting sync", D14): pre-configuration, sync, and drift status.
import type { AppContext } from "../../context";
import { keepOpen } from "../../context";
import type { Config } from "../../config/schema";
import { validateConfig } from "../../config/validate";
import { hostPreconfig, hostStatus, hostSync } from "./host-sync";
import { json } from "../../http/json-response";
import type { AdminApp } from "../../http/admin-edge";
import { AdminBody, HostSyncBody } from "./schema";
import { writeInfo } from "./admin-kit";
import { invalidRequest } from "../../util/invalid-request";
import { adminDoc } from "./route-docs";

export interface HostRouteOptions {
  /** D14.2's pause between account logins; tests shorten it. */
  loginGapMs?: number;
}

export function hostRoutes(app: AdminApp, ctx: AppContext, opts: HostRouteOptions = {}): void {
  app.get("/admin/host/config", () => json(hostPreconfig(ctx.env)), { ...adminDoc("GET /admin/host/config"), admin: true });

  app.post(
    "/admin/host/sync",
    async ({ request, body }) => {
      keepOpen(ctx, request);
      const result = await hostSync(
        ctx,
        {
          host_token: body.host_token ?? undefined,
          project_id: body.project_id ?? undefined,
          team_id: body.team_id ?? undefined,
          auto_validate: body.auto_validate ?? true,
          save_credentials: body.save_credentials ?? true,
        },
        { loginGapMs: opts.loginGapMs },
      );
      return json({ ...result, ...writeInfo(ctx.config.writeStatus()) });
    },
    { ...adminDoc("POST /admin/host/sync"), admin: true, body: HostSyncBody },
  );

  app.get("/admin/host/status", () => json(hostStatus(ctx)), { ...adminDoc("GET /admin/host/status"), admin: true });

  app.post(
    "/admin/host/status",
    async ({ body }) => {
      let draft: Config | undefined;
      if (body.config_override !== undefined && body.config_override !== null) {
        const r = validateConfig(body.config_override);
        if (!r.ok) throw invalidRequest(`config_override: ${r.field}: ${r.problem}`);
        draft = r.config;
      }
      return json(hostStatus(ctx, draft));
    },
    { ...adminDoc("POST /admin/host/status"), admin: true, body: AdminBody },
  );
}
