// GET /admin/requests and GET /admin/requests/{request_id} (issue 31): the request log, newest first, filtered
// and paged by cursor; one request by the id its client saw in X-Request-Id. Rows carry no secret (the key's
// name and fingerprint, the account masked), so they are returned as stored.
import type { AppContext } from "../../context";
import type { AdminApp } from "../../http/admin-edge";
import { json } from "../../http/json-response";
import { parseRequestQuery } from "../../metering/request-query";
import { notFound, pathParam } from "./admin-kit";
import { GatewayError } from "../../util/gateway-error";
import type { LoggedRequest, RequestPage } from "../../metering/request-log";
import { adminDoc } from "./route-docs";
import { RequestLogQuery } from "./query-schema";

/** GET /admin/requests/{request_id}: the newest entry of that id, any others (a retried id), and what it links to. */
export type RequestDetail = LoggedRequest & { others: LoggedRequest[]; links: { conversation: string | null; capture: string | null } };

async function logOf(ctx: AppContext) {
  const log = ctx.ops?.requestLog;
  if (!log) throw new GatewayError(404, "not_found", "The request log is off (request_log.enabled: false).");
  // Rows still queued are written first: a request that just ended is found at once.
  await log.fresh();
  return log;
}

export function requestsRoutes(app: AdminApp, ctx: AppContext): void {
  app.get(
    "/admin/requests",
    async ({ query }) => {
      const q = parseRequestQuery(query);
      const log = await logOf(ctx);
      return json({ ...(await log.read<RequestPage>("query", q)), counters: log.counters });
    },
    { ...adminDoc("GET /admin/requests"), admin: true, query: RequestLogQuery },
  );
  app.get(
    "/admin/requests/:request_id",
    async (c) => {
      const id = pathParam(c, "request_id");
      const rows = await (await logOf(ctx)).read<LoggedRequest[]>("byId", id);
      if (rows.length === 0) throw notFound(`No logged request ${id.slice(0, 128)}.`);
      const row = rows[0]!;
      // Links the console follows: the conversation while chat history still holds it, the dev capture chain.
      const conversation = row.history_id && ctx.chatHistory.get(row.history_id) ? row.history_id : null;
      const capture = ctx.captures.chain(id) ? id : null;
      return json({ ...row, others: rows.slice(1), links: { conversation, capture } } satisfies RequestDetail);
    },
    { ...adminDoc("GET /admin/requests/:request_id"), admin: true },
  );
}
