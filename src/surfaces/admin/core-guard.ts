// Only the admin routes' guard is left here: the interface itself (src/accounts/operations.ts) sits beside the
// accounts it operates on, so the context can name it without importing a surface.
import { GatewayError } from "../../util/gateway-error";
import type { AppContext } from "../../context";
import type { AccountOps } from "../../accounts/operations";

export function requireAccountOps(ctx: AppContext): AccountOps {
  if (!ctx.accountOps) throw new GatewayError(503, "service_unavailable", "core client not available");
  return ctx.accountOps;
}
