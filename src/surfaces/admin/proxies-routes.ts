// Proxies (gateway.md "Proxies", D11.7): list, create, update, delete (unbinding accounts) and test.
// Passwords are accepted and never returned (`has_password`).
import type { AppContext } from "../../context";
import { effectiveUpstream } from "../../config/effective";
import { generatedProxyId } from "../../config/identity";
import { maskProxy } from "../../config/mask";
import type { Proxy } from "../../config/schema";
import { validateConfig } from "../../config/validate";
import { type Static } from "elysia";
import { json } from "../../http/json-response";
import type { AdminApp } from "../../http/admin-edge";
import { IdParams, ProxyBody, ProxyTestBody } from "./schema";
import { conflict, notFound, pathParam, writeInfo } from "./admin-kit";
import { invalidRequest } from "../../util/invalid-request";
import { testProxy } from "./proxy-test";
import { adminDoc } from "./route-docs";
import type { ProxiesView } from "./answer-schema";

/** The proxy fields of a body (shapes checked by ProxyBody), normalised: type lower-cased, host trimmed, port a number. */
function proxyFields(body: Static<typeof ProxyBody>): Partial<Proxy> {
  const out: Partial<Proxy> = {};
  if (body.name != null) out.name = body.name;
  if (body.username != null) out.username = body.username;
  if (body.password != null) out.password = body.password;
  if (body.type != null) out.type = body.type.trim().toLowerCase() as Proxy["type"];
  if (body.host != null) out.host = body.host.trim();
  if (body.port != null) {
    const port = Number(body.port);
    // A numeric string out of range: the same answer as a number out of range.
    if (port < 1 || port > 65535) throw invalidRequest("port must be an integer between 1 and 65535.");
    out.port = port;
  }
  return out;
}

/** Runs the whole-config rules on one proxy, for a temporary proxy that is never stored. */
function checkProxy(p: Partial<Proxy>): Proxy {
  const candidate = { id: "temporary", ...p } as Proxy;
  const r = validateConfig({ proxies: [candidate] });
  if (!r.ok) throw invalidRequest(`${r.field.replace(/^proxies\.0\./, "")}: ${r.problem}`);
  return r.config.proxies![0]!;
}

export function proxiesRoutes(app: AdminApp, ctx: AppContext): void {
  const view = (id: string) => {
    const c = ctx.config.get();
    return maskProxy((c.proxies ?? []).find((p) => p.id === id)!, c.accounts ?? []);
  };

  app.get(
    "/admin/proxies",
    () => {
      const c = ctx.config.get();
      const items = (c.proxies ?? []).map((p) => maskProxy(p, c.accounts ?? []));
      return json({ items, total: items.length } satisfies ProxiesView);
    },
    { ...adminDoc("GET /admin/proxies"), admin: true },
  );

  app.post(
    "/admin/proxies",
    async ({ body }) => {
      const fields = proxyFields(body);
      const givenId = body.id?.trim();
      if (!fields.type) fields.type = "http";
      if (!fields.host) throw invalidRequest("host is required.");
      if (fields.port === undefined) throw invalidRequest("port is required.");
      const id = givenId || generatedProxyId({ type: fields.type, host: fields.host, port: fields.port, username: fields.username });
      const proxy = { id, ...fields, name: fields.name || `${fields.host}:${fields.port}` } as Proxy;
      const result = await ctx.config.update((c) => {
        const list = (c.proxies ??= []);
        if (list.some((p) => p.id === id)) throw conflict(`Proxy ${id} already exists.`);
        list.push(proxy);
      });
      return json({ success: true, proxy: view(id), ...writeInfo(result) });
    },
    { ...adminDoc("POST /admin/proxies"), admin: true, body: ProxyBody },
  );

  app.put(
    "/admin/proxies/:id",
    async (c) => {
      const id = pathParam(c, "id");
      const fields = proxyFields(c.body);
      // An empty password keeps the stored one (gateway.md).
      if (fields.password === "") delete fields.password;
      const result = await ctx.config.update((draft) => {
        const p = (draft.proxies ?? []).find((x) => x.id === id);
        if (!p) throw notFound(`Proxy ${id} not found.`);
        Object.assign(p, fields);
      });
      return json({ success: true, proxy: view(id), ...writeInfo(result) });
    },
    { ...adminDoc("PUT /admin/proxies/:id"), admin: true, body: ProxyBody, params: IdParams },
  );

  app.delete(
    "/admin/proxies/:id",
    async (c) => {
      const id = pathParam(c, "id");
      let unbound = 0;
      const result = await ctx.config.update((draft) => {
        const list = draft.proxies ?? [];
        if (!list.some((p) => p.id === id)) throw notFound(`Proxy ${id} not found.`);
        draft.proxies = list.filter((p) => p.id !== id);
        unbound = 0;
        for (const a of draft.accounts ?? []) {
          if (a.proxy_id !== id) continue;
          a.proxy_id = "";
          unbound++;
        }
      });
      return json({ success: true, unbound_accounts: unbound, ...writeInfo(result) });
    },
    { ...adminDoc("DELETE /admin/proxies/:id"), admin: true, params: IdParams },
  );

  app.post(
    "/admin/proxies/test",
    async ({ body }) => {
      const savedId = body.proxy_id?.trim();
      let proxy: Proxy;
      if (savedId) {
        const found = (ctx.config.get().proxies ?? []).find((p) => p.id === savedId);
        if (!found) throw notFound(`Proxy ${savedId} not found.`);
        proxy = found;
      } else {
        const fields = proxyFields(body);
        proxy = checkProxy({ type: "http", ...fields });
      }
      const origin = effectiveUpstream(ctx.config.get(), ctx.env).base_url;
      const r = await testProxy(proxy, origin);
      return json({ success: r.success, proxy_id: savedId ?? "", proxy_type: proxy.type, response_time: r.response_time, status_code: r.status_code, message: r.message });
    },
    { ...adminDoc("POST /admin/proxies/test"), admin: true, body: ProxyTestBody },
  );
}
