// Chat history (gateway.md "Chat history and version", D12.3–D12.6): list and detail with weak ETags so a
// polling UI gets 304s, delete one or all, and the retention limit.
import type { AppContext } from "../../context";
import { effectiveChatHistory } from "../../config/effective";
import { summaryOf } from "../../store/chat-history";
import { json } from "../../http/json-response";
import type { AdminApp } from "../../http/admin-edge";
import { HistorySettingsBody, IdParams } from "./schema";
import { notFound, pathParam, writeInfo } from "./admin-kit";
import { adminDoc } from "./route-docs";
import type { HistoryEntry, HistoryList } from "./answer-schema-ops";

/** If-None-Match may list several tags, weak or strong; a match on the opaque part is enough (RFC 9110 weak comparison). */
function matches(request: Request, etag: string): boolean {
  const header = request.headers.get("if-none-match");
  if (!header) return false;
  if (header.trim() === "*") return true;
  const opaque = (t: string) => t.trim().replace(/^W\//, "");
  return header.split(",").some((t) => opaque(t) === opaque(etag));
}

function withEtag(request: Request, etag: string, body: () => unknown): Response {
  if (matches(request, etag)) return new Response(null, { status: 304, headers: { ETag: etag } });
  return json(body(), 200, { ETag: etag });
}

const ENTRY_NOT_FOUND = "Chat history entry not found";

export function historyRoutes(app: AdminApp, ctx: AppContext): void {
  const store = () => ctx.chatHistory;

  app.get(
    "/admin/chat-history",
    ({ request }) =>
      withEtag(request, `W/"history-${store().revision}"`, () => {
        const s = store();
        return {
          version: 1,
          limit: effectiveChatHistory(ctx.config.get()).limit,
          revision: s.revision,
          total: s.size(),
          persisted: s.persisted,
          path: s.path ?? "",
          items: s.items().map(summaryOf),
        } satisfies HistoryList;
      }),
    { ...adminDoc("GET /admin/chat-history"), admin: { quiet: true } },
  );

  app.delete(
    "/admin/chat-history",
    () => {
      store().clear();
      return json({ success: true });
    },
    { ...adminDoc("DELETE /admin/chat-history"), admin: true },
  );

  app.put(
    "/admin/chat-history/settings",
    async ({ body }) => {
      const { limit } = body;
      const result = await ctx.config.update((c) => {
        c.chat_history = { ...(c.chat_history ?? {}), limit };
      });
      // Lowering the limit drops the oldest entries at once (D12.6).
      store().enforceLimit();
      return json({ success: true, limit, total: store().size(), ...writeInfo(result) });
    },
    { ...adminDoc("PUT /admin/chat-history/settings"), admin: true, body: HistorySettingsBody },
  );

  app.get(
    "/admin/chat-history/:id",
    (c) => {
      const entry = store().get(pathParam(c, "id"));
      if (!entry) throw notFound(ENTRY_NOT_FOUND);
      return withEtag(c.request, `W/"history-${entry.id}-${entry.revision}"`, () => ({ item: entry }) satisfies HistoryEntry);
    },
    { ...adminDoc("GET /admin/chat-history/:id"), admin: { quiet: true }, params: IdParams },
  );

  app.delete(
    "/admin/chat-history/:id",
    (c) => {
      if (!store().delete(pathParam(c, "id"))) throw notFound(ENTRY_NOT_FOUND);
      return json({ success: true });
    },
    { ...adminDoc("DELETE /admin/chat-history/:id"), admin: true, params: IdParams },
  );
}
