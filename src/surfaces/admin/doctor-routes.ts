// GET /admin/doctor (issue 32): the doctor's checks against the running configuration, as JSON
// ({ok, checks:[{check, status, result, action}]}); 200 whatever the findings — a failed check is data.
import type { AppContext } from "../../context";
import { keepOpen } from "../../context";
import { json } from "../../http/json-response";
import type { AdminApp } from "../../http/admin-edge";
import { adminDoc } from "./route-docs";

export function doctorRoutes(app: AdminApp, ctx: AppContext): void {
  app.get(
    "/admin/doctor",
    async ({ request }) => {
      // Logins through slow proxies can take a while: the idle timeout must not cut the answer.
      keepOpen(ctx, request);
      // Loaded on the first call: the checks bring node:net, node:tls, node:dns and node:crypto, which a start
      // does not need (issue 35).
      const { runDoctor } = await import("../../doctor/checks");
      const report = await runDoctor({ config: ctx.config.get(), env: ctx.env, dataDir: ctx.dataDir, configSource: "running configuration" });
      return json(report);
    },
    { ...adminDoc("GET /admin/doctor"), admin: true },
  );
}
