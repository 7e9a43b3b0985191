// GET /metrics (issue 20): Prometheus text exposition. Open when `metrics.public` is true; otherwise the admin
// credential (key or console JWT) or `metrics.token` as a bearer, so a scraper need not hold the admin key.
import type { AppContext } from "../../context";
import { bearerOf, requireAdmin } from "../../http/admin-auth";
import { GatewayError } from "../../http/errors";
import { requestStateSlot } from "../../http/request-state";
import { safeEqual } from "../../util/hash";
import { Elysia } from "elysia";

export function metricsRoutes(ctx: AppContext) {
  return new Elysia().use(requestStateSlot).get("/metrics", async ({ request, reqState }) => {
    // Scraped every few seconds: at info it would drown the log (D3.6's polling rule).
    reqState.quiet = true;
    const settings = ctx.config.get().metrics;
    if (!settings?.public) {
      const bearer = bearerOf(request);
      const token = settings?.token;
      if (!(token && bearer && safeEqual(bearer, token))) await requireAdmin(ctx, request);
    }
    if (!ctx.ops) throw new GatewayError(503, "service_unavailable", "Metrics are not available in this process.");
    return new Response(await ctx.ops.metrics.text(), {
      headers: { "Content-Type": ctx.ops.metrics.contentType(), "Cache-Control": "no-store" },
    });
  });
}
