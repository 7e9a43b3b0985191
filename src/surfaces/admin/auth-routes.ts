// POST /admin/login, GET /admin/verify, POST /admin/settings/password (gateway.md "Login and verification", D5.5–D5.9).
import type { AppContext } from "../../context";
import { clientIp } from "../../context";
import { GatewayError } from "../../util/gateway-error";
import { invalidRequest } from "../../util/invalid-request";
import { adminJwtOf, bearerOf, checkJwt, unauthorized, validAfterUnix } from "../../http/admin-auth";
import { signAdminJwt } from "../../http/jwt";
import { hashPassword, verifyPassword } from "../../http/password";
import { safeEqual } from "../../util/hash";
import { json } from "../../http/json-response";
import type { AdminApp } from "../../http/admin-edge";
import { LoginBody, PasswordBody } from "./schema";
import { adminDoc } from "./route-docs";

export function adminAuthRoutes(app: AdminApp, ctx: AppContext): void {
  /** While an address is locked out, its logins are refused before their body is read (D5.9). */
  const notLockedOut = ({ request }: { request: Request }) => {
    const wait = ctx.loginThrottle.retryAfter(clientIp(ctx, request));
    if (wait > 0) throw new GatewayError(429, "rate_limit_exceeded", "Too many failed admin logins; try again later.", { retryAfter: wait });
  };
  app.post(
    "/admin/login",
    async ({ request, body }) => {
      notLockedOut({ request });
      const ip = clientIp(ctx, request);
      // Past the global failure budget every login is slowed, the right one's included; none is refused.
      await ctx.loginThrottle.slowDown();
      const secret = typeof body.admin_key === "string" && body.admin_key ? body.admin_key : typeof body.password === "string" ? body.password : "";
      const cfg = ctx.config.get();
      let ok = secret !== "" && safeEqual(secret, ctx.admin.key);
      if (!ok && secret && cfg.admin?.password_hash) {
        const check = await verifyPassword(secret, cfg.admin.password_hash);
        ok = check.ok;
        // A legacy sha256 hash is upgraded to argon2id at the first successful login (D5.7).
        if (ok && check.legacy) {
          const upgraded = await hashPassword(secret);
          // Opportunistic: a shared store that cannot take the write (503, issue 30) must not refuse a valid
          // login; the legacy hash stays and is upgraded at a later login.
          await ctx.config
            .update((c) => {
              c.admin = { ...(c.admin ?? {}), password_hash: upgraded };
            })
            .catch((e) => ctx.log.warn("admin password hash not upgraded", { error: String((e as Error)?.message ?? e) }));
        }
      }
      if (!ok) {
        ctx.loginThrottle.fail(ip);
        ctx.log.warn("admin login failed", { client_ip: ip });
        throw new GatewayError(401, "authentication_failed", "Invalid admin credentials");
      }
      ctx.loginThrottle.succeed(ip);
      const defaultHours = ctx.config.get().admin?.jwt_expire_hours ?? 24;
      let hours = defaultHours;
      if (body.expire_hours !== undefined && body.expire_hours !== null) {
        const h = Number(body.expire_hours);
        if (!Number.isFinite(h) || h < 1 || h > 720) throw invalidRequest("expire_hours must be between 1 and 720.");
        hours = h;
      }
      const now = Math.floor(ctx.now() / 1000);
      const exp = now + Math.round(hours * 3600);
      const token = await signAdminJwt(await adminJwtOf(ctx), exp, validAfterUnix(ctx));
      return json({ success: true, token, expires_in: exp - now, expires_at: exp });
    },
    { ...adminDoc("POST /admin/login"), parse: [notLockedOut, "admin"], body: LoginBody },
  );

  // Throttled like every admin credential check (a forged token here is a guess too).
  app.get(
    "/admin/verify",
    async ({ request }) => {
      const token = bearerOf(request);
      if (!token) throw unauthorized();
      const check = await checkJwt(ctx, token);
      if (!check.ok) throw unauthorized();
      const now = Math.floor(ctx.now() / 1000);
      return json({ valid: true, expires_at: check.claims.exp, remaining_seconds: Math.max(0, check.claims.exp - now) });
    },
    { ...adminDoc("GET /admin/verify"), admin: { jwtOnly: true } },
  );

  app.post(
    "/admin/settings/password",
    async ({ body }) => {
      const pw = typeof body.new_password === "string" ? body.new_password : typeof body.password === "string" ? body.password : undefined;
      if (pw === undefined || pw.length < 8 || pw.length > 1024)
        throw invalidRequest("new_password must be a string of 8 to 1024 characters.");
      const hash = await hashPassword(pw);
      // Strictly later than the previous mark, so tokens issued in the same second as an earlier change fail too.
      const now = Math.max(Math.floor(ctx.now() / 1000), validAfterUnix(ctx) + 1);
      const result = await ctx.config.update((c) => {
        c.admin = { ...(c.admin ?? {}), password_hash: hash, jwt_valid_after_unix: now };
      });
      return json({
        success: true,
        message: "Admin password updated; sign in again.",
        force_relogin: true,
        jwt_valid_after_unix: now,
        ...writeInfo(result),
      });
    },
    { ...adminDoc("POST /admin/settings/password"), admin: true, body: PasswordBody },
  );
}

export function writeInfo(result: { config_writable: boolean; config_warning?: string }) {
  return result.config_warning ? { config_writable: result.config_writable, config_warning: result.config_warning } : { config_writable: result.config_writable };
}
