// GET /admin/console/status: what the console's overview shows and the rest of the admin API does not say —
// whether core is the built-in simulator (demo mode), process uptime, how many accounts are cooling down or
// failed their last login, and the most recent failed conversations (from chat history, without bodies).
import type { AppContext } from "../../context";
import { accountIdentifier } from "../../config/identity";
import { summaryOf } from "../../store/chat-history";
import { VERSION } from "../../version";
import { json } from "../../http/json-response";
import type { AdminApp } from "../../http/admin-edge";
import { adminDoc } from "./route-docs";

const RECENT_ERRORS = 5;
const STARTED_AT = Date.now() - Math.round(process.uptime() * 1000);

export function consoleStatusRoutes(app: AdminApp, ctx: AppContext): void {
  app.get(
    "/admin/console/status",
    () => {
        const ids = (ctx.config.get().accounts ?? []).map(accountIdentifier);
        const cooling = ids.filter((id) => ctx.pool.inCooldown(id)).length;
        const failed = ids.filter((id) => ctx.accounts.status(id).test_status === "failed").length;
        const recent = ctx.chatHistory
          .items()
          .filter((e) => e.status === "error")
          .slice(0, RECENT_ERRORS)
          .map((e) => {
            const s = summaryOf(e);
            return { id: s.id, created_at: s.created_at, surface: s.surface, model: s.model, status_code: s.status_code, error_code: s.error_code, account_id: s.account_id, message: e.error?.message ?? "" };
          });
        return json({
          success: true,
          version: VERSION,
          demo: ctx.coreSimulated === true,
          started_at: new Date(STARTED_AT).toISOString(),
          uptime_seconds: Math.floor((Date.now() - STARTED_AT) / 1000),
          accounts_total: ids.length,
          accounts_in_cooldown: cooling,
          accounts_failed: failed,
          recent_errors: recent,
        });
    },
    { ...adminDoc("GET /admin/console/status"), admin: { quiet: true } },
  );
}
