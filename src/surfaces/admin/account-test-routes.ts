// Admin routes that reach core (gateway.md "Accounts", D11.6, D11.8): one account test, test-all,
// deleting all sessions of an account, and the self test through the gateway's own chat route.
import type { AppContext } from "../../context";
import { keepOpen } from "../../context";
import { accountIdentifier } from "../../config/identity";
import { json } from "../../http/json-response";
import type { AdminApp } from "../../http/admin-edge";
import { AccountTestBody, SelfTestBody } from "./schema";
import { notFound, writeInfo } from "./admin-kit";
import { invalidRequest } from "../../util/invalid-request";
import { mapLimited } from "../../util/map-limited";
import { requireAccountOps } from "./core-guard";
import { type AccountOps, type AccountTestResult } from "../../accounts/operations";
import { callerKey, parseBody, selfChat } from "./self-call";
import { adminDoc } from "./route-docs";

const DEFAULT_MODEL = "core-v4-flash";
const TEST_TIMEOUT_MS = 60_000;
/** gateway.md: test-all runs with a fixed concurrency of 5. */
export const TEST_ALL_CONCURRENCY = 5;

async function runTest(ctx: AppContext, ops: AccountOps, id: string, model: string, message: string): Promise<AccountTestResult> {
  const started = performance.now();
  let r: AccountTestResult;
  try {
    r = await ops.test(id, { model, message, signal: AbortSignal.timeout(TEST_TIMEOUT_MS) });
  } catch (e) {
    // The ops contract resolves on upstream failures; anything thrown is still a failed test, not a 500.
    const timedOut = (e as Error)?.name === "TimeoutError";
    r = { success: false, response_time: Math.round(performance.now() - started), message: timedOut ? "timed out after 60 s" : (e as Error)?.message || "test failed", model, session_count: 0 };
  }
  ctx.accounts.mark(id, r.success ? "ok" : "failed", r.message);
  // A passing test is the operator's proof that the account works: it ends a cooldown or a disable (issue 32).
  if (r.success) ctx.health.success(id, "probe");
  return r;
}

function testBody(ctx: AppContext, id: string, r: AccountTestResult) {
  const out: Record<string, unknown> = {
    account: id,
    success: r.success,
    response_time: r.response_time,
    message: r.message,
    model: r.model,
    session_count: r.session_count,
    test_status: ctx.accounts.status(id).test_status,
    // A login during the test may have stored a token; say whether that reached the disk (gateway.md).
    ...writeInfo(ctx.config.writeStatus()),
  };
  if (r.thinking) out.thinking = r.thinking;
  return out;
}

/** The account a body's `identifier` names (a 400 without one; undefined when none matches) and core's operations. */
function namedAccount(ctx: AppContext, body: { identifier?: string | null }) {
  const raw = body.identifier?.trim();
  if (!raw) throw invalidRequest("identifier is required.");
  return { ops: requireAccountOps(ctx), acc: ctx.accounts.find(raw) };
}

export function accountTestRoutes(app: AdminApp, ctx: AppContext): void {
  app.post(
    "/admin/accounts/test",
    async ({ request, body }) => {
      keepOpen(ctx, request);
      const { ops, acc } = namedAccount(ctx, body);
      if (!acc) throw notFound("Account not found.");
      const id = accountIdentifier(acc);
      const model = body.model?.trim() || DEFAULT_MODEL;
      const message = body.message ?? "";
      return json(testBody(ctx, id, await runTest(ctx, ops, id, model, message)));
    },
    { ...adminDoc("POST /admin/accounts/test"), admin: true, body: AccountTestBody },
  );

  app.post(
    "/admin/accounts/test-all",
    async ({ request, body }) => {
      keepOpen(ctx, request);
      const model = body.model?.trim() || DEFAULT_MODEL;
      const ops = requireAccountOps(ctx);
      const ids = ctx.accounts.ids();
      // D11.6: session-only tests, results in account config order.
      const results = await mapLimited(ids, TEST_ALL_CONCURRENCY, async (id) => testBody(ctx, id, await runTest(ctx, ops, id, model, "")));
      const ok = results.filter((r) => r.success).length;
      return json({ total: results.length, success: ok, failed: results.length - ok, results });
    },
    { ...adminDoc("POST /admin/accounts/test-all"), admin: true, body: AccountTestBody },
  );

  app.post(
    "/admin/accounts/sessions/delete-all",
    async ({ request, body }) => {
      keepOpen(ctx, request);
      const { ops, acc } = namedAccount(ctx, body);
      // gateway.md: a missing account is success:false with the reason, not an HTTP error.
      if (!acc) return json({ success: false, message: "Account not found.", deleted: 0 });
      try {
        const r = await ops.deleteAllSessions(accountIdentifier(acc));
        return json({ success: r.success, message: r.message, deleted: r.deleted });
      } catch (e) {
        return json({ success: false, message: (e as Error)?.message || "deleting sessions failed", deleted: 0 });
      }
    },
    { ...adminDoc("POST /admin/accounts/sessions/delete-all"), admin: true, body: AccountTestBody },
  );

  app.post(
    "/admin/test",
    async ({ request, body }) => {
      keepOpen(ctx, request);
      const model = body.model?.trim() || DEFAULT_MODEL;
      const message = body.message || "Hello!";
      const key = callerKey(ctx, body.api_key);
      const r = await selfChat(ctx, key, { model, messages: [{ role: "user", content: message }], stream: false });
      return json({ success: r.status === 200, status_code: r.status, response: parseBody(r.text) });
    },
    { ...adminDoc("POST /admin/test"), admin: true, body: SelfTestBody },
  );
}
