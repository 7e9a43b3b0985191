// Admin credentials (D5.5, D5.6): Bearer <jwt> or Bearer <admin key> on every admin route but login;
// /admin/verify takes only a JWT. Every check is throttled per client address with the login throttle
// (D5.9, issue 15): a wrong guess counts as a failed login, so guessing the key on any route is as slow as
// guessing it at /admin/login.
import type { AppContext } from "../context";
import { clientIp } from "../context";
import { GatewayError } from "../util/gateway-error";
import type { AdminJwt, JwtCheck } from "./jwt";
import { safeEqual } from "../util/hash";

export function bearerOf(request: Request): string | null {
  const m = /^\s*bearer\s+(.+?)\s*$/i.exec(request.headers.get("authorization") ?? "");
  return m?.[1] ?? null;
}

// One signer per context: its secret is fixed for the life of the process (D5.5), derived once. The JWT code
// (jwt.ts, @elysiajs/jwt, jose) is imported with the first token to sign or check: a start needs none of it, and
// the business part reaches this file for admin credentials on /metrics and unknown /admin paths (issue 35).
const signers = new WeakMap<AppContext, Promise<AdminJwt>>();

export function adminJwtOf(ctx: AppContext): Promise<AdminJwt> {
  let signer = signers.get(ctx);
  if (!signer) {
    signer = import("./jwt").then((j) => j.adminJwtPlugin(j.adminJwtSecret({ envSecret: ctx.admin.jwtEnvSecret, adminKey: ctx.admin.key })).decorator.adminJwt);
    signers.set(ctx, signer);
  }
  return signer;
}

/** admin.jwt_valid_after_unix, 0 when unset: the `va` every valid token must carry. */
export function validAfterUnix(ctx: AppContext): number {
  return ctx.config.get().admin?.jwt_valid_after_unix ?? 0;
}

export async function checkJwt(ctx: AppContext, token: string): Promise<JwtCheck> {
  const [signer, { verifyAdminJwt }] = await Promise.all([adminJwtOf(ctx), import("./jwt")]);
  return verifyAdminJwt(signer, token, Math.floor(ctx.now() / 1000), validAfterUnix(ctx));
}

/**
 * A token we did not sign is a guess. An expired or revoked JWT carries our signature: it is a stale console
 * tab, not an attack, and must not lock its operator out of /admin/login.
 */
function isGuess(check: JwtCheck): boolean {
  return !check.ok && check.reason === "signature";
}

/** D4.1's admin shape, with a hint of what the route wants (issue 32); the same text whatever was wrong. */
export const ADMIN_401_HINT =
  "Unauthorized: send the admin key (SVC_ADMIN_KEY, or the key printed at start) or a console session token from POST /admin/login as 'Authorization: Bearer <token>'.";
export const unauthorized = () => new GatewayError(401, "authentication_failed", ADMIN_401_HINT);

export const throttled = (retryAfter: number) =>
  new GatewayError(429, "rate_limit_exceeded", "Too many failed admin credentials from this address; try again later.", { retryAfter });

/**
 * Checks an admin credential; throws 401, or 429 while the client address is locked out.
 * - A valid JWT always passes: its signature cannot be guessed, and a neighbour behind the same address
 *   must not lock an operator's open console out.
 * - While locked, the admin key is not compared at all (as /admin/login, D5.9): answering the right key
 *   during a lockout would let guessing go on at full speed. The right key resets the failures.
 */
export async function requireAdmin(ctx: AppContext, request: Request, opts: { jwtOnly?: boolean } = {}): Promise<void> {
  const token = bearerOf(request);
  if (!token) throw unauthorized();
  const jwt = await checkJwt(ctx, token);
  if (jwt.ok) return;
  const ip = clientIp(ctx, request);
  const wait = ctx.loginThrottle.retryAfter(ip);
  if (wait > 0) throw throttled(wait);
  // Past the global failure budget every key check is slowed, the right key's included; none is refused.
  await ctx.loginThrottle.slowDown();
  if (safeEqual(token, ctx.admin.key)) {
    // /admin/verify answers 401 to the key (D5.6), but the key is no guess.
    if (opts.jwtOnly) throw unauthorized();
    ctx.loginThrottle.succeed(ip);
    return;
  }
  if (isGuess(jwt)) {
    ctx.loginThrottle.fail(ip);
    const lockedFor = ctx.loginThrottle.retryAfter(ip);
    // One line when the lock engages, not one per guess: a guessing client must not flood the log.
    if (lockedFor > 0) ctx.log.warn("admin credential throttle engaged", { client_ip: ip, retry_after: lockedFor });
  }
  throw unauthorized();
}

/** For answers that depend on being an admin (unknown admin routes): 401 or 429 as a GatewayError, or null. */
export async function adminDenial(ctx: AppContext, request: Request): Promise<GatewayError | null> {
  try {
    await requireAdmin(ctx, request);
    return null;
  } catch (e) {
    return e instanceof GatewayError ? e : unauthorized();
  }
}
