// Small helpers every admin route module shares (the credential gate and body parsing are http/admin-edge.ts): path parameters and the
// `config_writable` fields of mutating responses (D2.2, D2.4, D11.1), and the 404/409 the routes share. A 400 is util/invalid-request.ts's, as on
// every surface.
import type { AppContext } from "../../context";
import { GatewayError } from "../../util/gateway-error";

export { writeInfo } from "./auth-routes";

/** Path parameters arrive URL-encoded on some routers; decode once, tolerating stray `%`. */
export function pathParam(c: { params: Record<string, string> }, name: string): string {
  const raw = c.params[name] ?? "";
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export const notFound = (msg: string) => new GatewayError(404, "not_found", msg);
export const conflict = (msg: string) => new GatewayError(409, "conflict", msg);

/** D2.2: what the settings and config views say about where the config lives. */
export function envFlags(ctx: AppContext) {
  const present = Boolean(ctx.env.SVC_CONFIG_JSON?.trim());
  const wb = (ctx.env.SVC_ENV_WRITEBACK ?? "").trim().toLowerCase();
  return {
    env_backed: ctx.config.envBacked,
    env_source_present: present,
    env_writeback_enabled: ["1", "true", "yes", "on"].includes(wb),
  };
}

/** D11.3: the config differs from what was last pushed to the host, and the host is where it lives. */
export function needsHostSync(ctx: AppContext): boolean {
  const f = envFlags(ctx);
  const last = ctx.config.get()._host_sync_hash ?? null;
  return (f.env_backed || f.env_source_present) && ctx.config.configHash() !== last;
}
