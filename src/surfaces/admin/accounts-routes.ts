// Managed accounts (gateway.md "Accounts", D8.1, D8.12, D8.15, D11.1, D11.5): the paged list with run-time
// state, create/edit/delete, proxy binding, queue status and the bulk import of keys and accounts.
import type { AppContext } from "../../context";
import { accountIdentifier, normaliseIdentifier } from "../../config/identity";
import { maskAccount } from "../../config/mask";
import type { Account, Config } from "../../config/schema";
import { accountProblem } from "../../config/validate";
import { json } from "../../http/json-response";
import type { AdminApp } from "../../http/admin-edge";
import { AccountCreateBody, AccountProxyBody, AccountUpdateBody, BulkImportBody, IdParams } from "./schema";
import { conflict, notFound, pathParam, writeInfo } from "./admin-kit";
import { invalidRequest } from "../../util/invalid-request";
import { accountFromBody, keyRecords, setKeys } from "./config-edit";
import { adminDoc } from "./route-docs";
import type { AccountRecord } from "./answer-schema-ops";
import { AccountsQuery } from "./query-schema";

/** D11.5 record: the stored fields without secrets plus the in-memory run-time state. */
export function accountRecord(ctx: AppContext, acc: Account) {
  const masked = maskAccount(acc);
  const rt = ctx.accounts.status(masked.identifier);
  const cooldown = ctx.pool.cooldownEnd(masked.identifier);
  return {
    ...masked,
    test_status: rt.test_status,
    tested_at: rt.tested_at,
    test_message: rt.test_message,
    in_flight: ctx.pool.inFlight(masked.identifier),
    cooldown_until: cooldown === null ? null : new Date(cooldown).toISOString(),
    // Issue 32: the health state machine in one line; the history is GET /admin/accounts/{id}/health.
    health_state: ctx.health.get(masked.identifier).state,
    health_class: ctx.health.get(masked.identifier).class,
  } satisfies AccountRecord;
}

function findIndex(c: Config, raw: string): number {
  const id = normaliseIdentifier(raw);
  return (c.accounts ?? []).findIndex((a) => accountIdentifier(a) === id);
}

function checkProxy(c: Config, proxyId: string | undefined): void {
  if (proxyId && !(c.proxies ?? []).some((p) => p.id === proxyId)) throw notFound(`Proxy ${proxyId} not found.`);
}

export function accountsRoutes(app: AdminApp, ctx: AppContext): void {
  const total = () => (ctx.config.get().accounts ?? []).length;

  app.get(
    "/admin/accounts",
    ({ query }) => {
      const page = query.page ?? 1;
      const pageSize = query.page_size ?? 10;
      const q = (query.q ?? "").trim().toLowerCase();
      const all = (ctx.config.get().accounts ?? []).filter((a) => {
        if (!q) return true;
        const m = maskAccount(a);
        return [m.identifier, m.email, m.mobile, m.name, m.remark].some((f) => f.toLowerCase().includes(q));
      });
      const items = all.slice((page - 1) * pageSize, page * pageSize).map((a) => accountRecord(ctx, a));
      return json({ items, total: all.length, page, page_size: pageSize, total_pages: Math.ceil(all.length / pageSize) });
    },
    { ...adminDoc("GET /admin/accounts"), admin: true, query: AccountsQuery },
  );

  app.post(
    "/admin/accounts",
    async ({ body }) => {
      const acc = accountFromBody(body, "account");
      delete acc.identifier;
      const problem = accountProblem(acc);
      if (problem) throw invalidRequest(`account ${problem}.`);
      const id = accountIdentifier(acc);
      const result = await ctx.config.update((c) => {
        const list = (c.accounts ??= []);
        if (list.some((a) => accountIdentifier(a) === id)) throw conflict(`Account ${id} already exists.`);
        checkProxy(c, acc.proxy_id ?? undefined);
        list.push(acc);
      });
      ctx.accounts.resetStatus(id);
      return json({ success: true, identifier: id, total_accounts: total(), ...writeInfo(result) });
    },
    { ...adminDoc("POST /admin/accounts"), admin: true, body: AccountCreateBody },
  );

  app.put(
    "/admin/accounts/:id",
    async (c) => {
      const raw = pathParam(c, "id");
      // null, like absent, leaves a field as it is.
      const name = c.body.name ?? undefined;
      const remark = c.body.remark ?? undefined;
      const password = c.body.password ?? undefined;
      const token = c.body.token ?? undefined;
      let id = normaliseIdentifier(raw);
      let nextId = id;
      let secretChanged = false;
      const result = await ctx.config.update((draft) => {
        const i = findIndex(draft, raw);
        if (i < 0) throw notFound(`Account ${id} not found.`);
        const acc = draft.accounts![i]!;
        id = accountIdentifier(acc);
        if (name !== undefined) acc.name = name;
        if (remark !== undefined) acc.remark = remark;
        // Pacing (issue 32): a number sets, null clears, absent keeps.
        for (const f of ["min_interval_ms", "daily_completions"] as const) {
          const v = c.body[f];
          if (v === null) delete acc[f];
          else if (v !== undefined) acc[f] = v;
        }
        // D11.5: a non-empty secret replaces, an empty one keeps.
        if (password) secretChanged ||= acc.password !== password;
        if (password) acc.password = password;
        if (token) secretChanged ||= acc.token !== token;
        if (token) acc.token = token;
        nextId = accountIdentifier(acc);
        // A token-only account's identifier follows its token; it must not collide with another account.
        if (nextId !== id && draft.accounts!.some((a, j) => j !== i && accountIdentifier(a) === nextId)) throw conflict(`Account ${nextId} already exists.`);
      });
      if (secretChanged) ctx.accounts.resetStatus(id);
      return json({ success: true, identifier: nextId, total_accounts: total(), ...writeInfo(result) });
    },
    { ...adminDoc("PUT /admin/accounts/:id"), admin: true, body: AccountUpdateBody, params: IdParams },
  );

  app.delete(
    "/admin/accounts/:id",
    async (c) => {
      const raw = pathParam(c, "id");
      const id = normaliseIdentifier(raw);
      const result = await ctx.config.update((draft) => {
        const i = findIndex(draft, raw);
        if (i < 0) throw notFound(`Account ${id} not found.`);
        draft.accounts!.splice(i, 1);
      });
      // Running requests finish on their own lease (D8.7); only the run-time status goes.
      ctx.accounts.resetStatus(id);
      ctx.health.forget(id);
      return json({ success: true, total_accounts: total(), ...writeInfo(result) });
    },
    { ...adminDoc("DELETE /admin/accounts/:id"), admin: true, params: IdParams },
  );

  app.put(
    "/admin/accounts/:id/proxy",
    async (c) => {
      const raw = pathParam(c, "id");
      const proxyId = (c.body.proxy_id ?? "").trim();
      const id = normaliseIdentifier(raw);
      const result = await ctx.config.update((draft) => {
        const i = findIndex(draft, raw);
        if (i < 0) throw notFound(`Account ${id} not found.`);
        checkProxy(draft, proxyId);
        draft.accounts![i]!.proxy_id = proxyId;
      });
      return json({ success: true, identifier: id, proxy_id: proxyId, ...writeInfo(result) });
    },
    { ...adminDoc("PUT /admin/accounts/:id/proxy"), admin: true, body: AccountProxyBody, params: IdParams },
  );

  app.get("/admin/queue/status", () => json(ctx.pool.status()), { ...adminDoc("GET /admin/queue/status"), admin: { quiet: true } });

  app.post(
    "/admin/import",
    async ({ body }) => {
      const keys = body.keys ?? [];
      const accounts = body.accounts ?? [];
      const counts = { imported_keys: 0, imported_accounts: 0, skipped_keys: 0, skipped_accounts: 0 };
      const result = await ctx.config.update((c) => {
        Object.assign(counts, { imported_keys: 0, imported_accounts: 0, skipped_keys: 0, skipped_accounts: 0 });
        const records = keyRecords(c);
        for (const k of keys) {
          // Invalid or already present entries are skipped rather than failing the whole batch.
          if (typeof k !== "string" || !/^\S{1,256}$/u.test(k) || records.some((r) => r.key === k)) {
            counts.skipped_keys++;
            continue;
          }
          records.push({ key: k, name: "", remark: "" });
          counts.imported_keys++;
        }
        setKeys(c, records);
        const list = (c.accounts ??= []);
        for (const raw of accounts) {
          let acc: Account;
          try {
            acc = accountFromBody(raw, "account");
          } catch {
            counts.skipped_accounts++;
            continue;
          }
          delete (acc as { identifier?: string }).identifier;
          const id = accountIdentifier(acc);
          if (accountProblem(acc) || !id || list.some((a) => accountIdentifier(a) === id) || (acc.proxy_id && !(c.proxies ?? []).some((p) => p.id === acc.proxy_id))) {
            counts.skipped_accounts++;
            continue;
          }
          list.push(acc);
          counts.imported_accounts++;
        }
      });
      return json({ success: true, ...counts, ...writeInfo(result) });
    },
    { ...adminDoc("POST /admin/import"), admin: true, body: BulkImportBody },
  );
}
