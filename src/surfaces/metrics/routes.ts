// GET /metrics (issue 20): Prometheus text exposition. Open when `metrics.public` is true; otherwise the admin
// credential (key or console JWT) or `metrics.token` as a bearer, so a scraper need not hold the admin key.
import type { AppContext } from "../../context";
import { publicDoc } from "../public-docs";
import { bearerOf, checkJwt, requireAdmin, throttled } from "../../http/admin-auth";
import { clientIp } from "../../context";
import { GatewayError } from "../../util/gateway-error";
import type { BusinessApp } from "../../http/business-edge";
import { safeEqual } from "../../util/hash";

export function metricsRoutes(app: BusinessApp, ctx: AppContext): void {
  app.get("/metrics", async ({ request, reqState }) => {
    // Scraped every few seconds: at info it would drown the log (D3.6's polling rule).
    reqState.quiet = true;
    const settings = ctx.config.get().metrics;
    if (!settings?.public) {
      const bearer = bearerOf(request);
      const token = settings?.token;
      if (!(token && bearer && (await scrapeTokenMatches(ctx, request, bearer, token)))) await requireAdmin(ctx, request);
    }
    if (!ctx.ops) throw new GatewayError(503, "service_unavailable", "Metrics are not available in this process.");
    return new Response(await ctx.ops.metrics.text(), {
      headers: { "Content-Type": ctx.ops.metrics.contentType(), "Cache-Control": "no-store" },
    });
  }, publicDoc("metrics"));
}

/**
 * The scrape token is a credential like the admin key, so it obeys the same lockout (D5.9, issue 30 item 4):
 * while the address is locked it is not compared at all, or a locked-out guesser would still learn right from
 * wrong at full speed. A valid console JWT still passes (requireAdmin's rule); a wrong token falls through to
 * requireAdmin, which counts it as a guess.
 */
async function scrapeTokenMatches(ctx: AppContext, request: Request, bearer: string, token: string): Promise<boolean> {
  const ip = clientIp(ctx, request);
  const wait = ctx.loginThrottle.retryAfter(ip);
  if (wait > 0) {
    if ((await checkJwt(ctx, bearer)).ok) return true;
    throw throttled(wait);
  }
  if (!safeEqual(bearer, token)) return false;
  ctx.loginThrottle.succeed(ip);
  return true;
}
