// Account health (issue 32): the state machine, the class and the last 100 events of one account, addressed by
// any identifier form of the other account routes (email, mobile in any spelling, token:<hash>); all accounts'
// states for the console list; and the operator's two actions, probe now and reset (re-enable).
import type { AppContext } from "../../context";
import { accountIdentifier } from "../../config/identity";
import { json } from "../../http/json-response";
import type { AdminApp } from "../../http/admin-edge";
import { AdminBody, IdParams } from "./schema";
import { notFound, pathParam } from "./admin-kit";
import { adminDoc } from "./route-docs";

export function healthRoutes(app: AdminApp, ctx: AppContext): void {
  /** The configured account's identifier, or a 404 in the admin shape. */
  const known = (raw: string): string => {
    const acc = ctx.accounts.find(raw);
    if (!acc) throw notFound(`Account ${raw} not found.`);
    return accountIdentifier(acc);
  };

  app.get("/admin/health/accounts", () => {
    const items = ctx.accounts.ids().map((id) => {
      const v = ctx.health.view(id);
      return { identifier: id, state: v.state, class: v.class, until: v.until, last_failure_at: v.last_failure_at, last_event: v.events[0] ?? null };
    });
    return json({ items });
  }, { ...adminDoc("GET /admin/health/accounts"), admin: { quiet: true } });

  app.get("/admin/accounts/:id/health", (c) => json(ctx.health.view(known(pathParam(c, "id")))), { ...adminDoc("GET /admin/accounts/:id/health"), admin: true, params: IdParams });

  app.post(
    "/admin/accounts/:id/health/reset",
    (c) => {
      const id = known(pathParam(c, "id"));
      ctx.health.reset(id);
      return json({ success: true, ...ctx.health.view(id) });
    },
    { ...adminDoc("POST /admin/accounts/:id/health/reset"), admin: true, params: IdParams, body: AdminBody },
  );

  app.post(
    "/admin/accounts/:id/health/probe",
    async (c) => {
      const id = known(pathParam(c, "id"));
      // Only an account that is out of rotation is probed: a healthy one has nothing to prove.
      await ctx.health.probe(id);
      return json({ success: true, ...ctx.health.view(id) });
    },
    { ...adminDoc("POST /admin/accounts/:id/health/probe"), admin: true, params: IdParams, body: AdminBody },
  );
}
