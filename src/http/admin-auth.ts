// Admin credentials (D5.5, D5.6): Bearer <jwt> or Bearer <admin key> on every admin route but login;
// /admin/verify takes only a JWT.
import type { AppContext } from "../context";
import { GatewayError } from "./errors";
import { deriveJwtSecret, verifyAdminJwt, type JwtCheck } from "./jwt";
import { safeEqual } from "../util/hash";

export function bearerOf(request: Request): string | null {
  const m = /^\s*bearer\s+(.+?)\s*$/i.exec(request.headers.get("authorization") ?? "");
  return m?.[1] ?? null;
}

export function jwtSecret(ctx: AppContext): Buffer {
  const cfg = ctx.config.get();
  return deriveJwtSecret({ envSecret: ctx.admin.jwtEnvSecret, adminKey: ctx.admin.key, passwordHash: cfg.admin?.password_hash ?? "" });
}

export function checkJwt(ctx: AppContext, token: string): JwtCheck {
  const cfg = ctx.config.get();
  return verifyAdminJwt(token, jwtSecret(ctx), Math.floor(ctx.now() / 1000), cfg.admin?.jwt_valid_after_unix ?? null);
}

export async function isAdminAuthorized(ctx: AppContext, request: Request): Promise<boolean> {
  const token = bearerOf(request);
  if (!token) return false;
  if (safeEqual(token, ctx.admin.key)) return true;
  return checkJwt(ctx, token).ok;
}

export const unauthorized = () => new GatewayError(401, "authentication_failed", "Unauthorized");

export async function requireAdmin(ctx: AppContext, request: Request): Promise<void> {
  if (!(await isAdminAuthorized(ctx, request))) throw unauthorized();
}
