// Issue 34 item 5: both OpenAPI documents describe every registered route — each route in exactly one of them,
// with a summary, who may call it (security), its request schema when it takes a body, at least one answer
// schema and an example — and the documented shapes are what the routes answer.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Value } from "@sinclair/typebox/value";
import type { TSchema } from "elysia";
import { makeTestApp, type TestApp } from "../helpers/app";
import { openapiDocument, OPENAPI_PATH, ADMIN_OPENAPI_PATH } from "../../src/http/openapi";
import { publicAnswerReferences, publicAnswersFor } from "../../src/surfaces/public-docs";
import { PUBLIC_ANSWERS } from "../../src/surfaces/public-answers";

let t: TestApp;
let pub: any;
let admin: any;
beforeAll(async () => {
  t = await makeTestApp();
  // The admin part is built on the first /admin request (app.ts); the documents and the route list need it now.
  await t.app.loadAdmin();
  pub = openapiDocument(t.app, "public", await publicAnswersFor(t.app));
  admin = openapiDocument(t.app, "admin", await publicAnswersFor(t.app));
});
afterAll(() => t.built.close());

const oaPath = (p: string) => p.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
/** Not operations of the API: CORS preflights (answered by the CORS plugin on any path) and the documents themselves. */
const isDocumentOrPreflight = (method: string, path: string) => method === "OPTIONS" || path === OPENAPI_PATH || path === ADMIN_OPENAPI_PATH;
/** The routes that take no credential, on purpose: probes, model lists, the console's static pages, the sign-in. */
const OPEN = [
  "GET /healthz", "HEAD /healthz", "GET /readyz", "HEAD /readyz",
  "HEAD /", "HEAD /v1", "HEAD /v1beta", "HEAD /msgapi", "HEAD /msgapi/v1",
  "GET /v1/models", "GET /v1/models/{id}", "GET /models", "GET /models/{id}", "GET /msgapi/v1/models", "GET /msgapi/v1/models/{id}", "GET /v1beta/models", "GET /v1beta/models/{model}",
  "GET /", "GET /admin", "GET /admin/", "GET /admin/assets/{name}", "POST /admin/login",
];

function examplesOf(op: any): unknown[] {
  const found: unknown[] = [];
  for (const media of [op.requestBody?.content, ...Object.values<any>(op.responses ?? {}).map((r) => r.content)])
    for (const m of Object.values<any>(media ?? {})) if (m?.schema?.examples?.length) found.push(...m.schema.examples);
  return found;
}

describe("the OpenAPI documents cover every route (issue 34 item 5)", () => {
  test.each(["public", "admin"])("the %s document is valid OpenAPI 3.1 and declares the security schemes it uses", async (which) => {
    const d = which === "admin" ? admin : pub;
    const result = await new Validator().validate(d);
    if (!result.valid) console.error(JSON.stringify(result.errors).slice(0, 2000));
    expect(result.valid).toBe(true);
    const used = new Set<string>();
    for (const ops of Object.values<any>(d.paths)) for (const op of Object.values<any>(ops)) for (const req of op.security ?? []) for (const k of Object.keys(req)) used.add(k);
    expect(used.size).toBeGreaterThan(0);
    for (const k of used) expect(Object.keys(d.components.securitySchemes)).toContain(k);
  });

  test("every registered route is in exactly one document, with summary, security, request schema, answers and an example", () => {
    const problems: string[] = [];
    let checked = 0;
    for (const route of t.app.routes) {
      if (isDocumentOrPreflight(route.method, route.path)) continue;
      const path = oaPath(route.path);
      const method = route.method.toLowerCase();
      const key = `${route.method} ${path}`;
      const inPub = pub.paths[path]?.[method];
      const inAdmin = admin.paths[path]?.[method];
      if (Boolean(inPub) === Boolean(inAdmin)) {
        problems.push(`${key}: in ${inPub ? "both documents" : "neither document"}`);
        continue;
      }
      checked++;
      const op = inPub ?? inAdmin;
      if (!op.summary) problems.push(`${key}: no summary`);
      if (!Array.isArray(op.security)) problems.push(`${key}: no security`);
      else if ((op.security.length === 0) !== OPEN.includes(key)) problems.push(`${key}: security ${JSON.stringify(op.security)}`);
      const takesBody = route.hooks?.body || path.endsWith("/files");
      if (takesBody && !Object.values<any>(op.requestBody?.content ?? {}).some((m) => m.schema)) problems.push(`${key}: no request schema`);
      if (!op.responses || Object.keys(op.responses).length === 0) problems.push(`${key}: no answers`);
      if (method !== "head") {
        if (!Object.values<any>(op.responses ?? {}).some((r) => Object.values<any>(r.content ?? {}).some((m) => m.schema))) problems.push(`${key}: no answer schema`);
        if (examplesOf(op).length === 0) problems.push(`${key}: no example`);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(90);
  });

  test("the probes' answers are documented although Elysia is not given them (issue 35: not compiled at start)", () => {
    const statuses = (path: string, method: string) => Object.keys(pub.paths[path]?.[method]?.responses ?? {}).sort();
    expect(statuses("/readyz", "get")).toEqual(["200", "503"]);
    expect(statuses("/readyz", "head")).toEqual(["200"]); // as before: the generator documents one answer for a HEAD
    expect(statuses("/healthz", "get")).toEqual(["200"]);
    for (const base of ["/", "/v1", "/v1beta", "/msgapi", "/msgapi/v1"]) expect(statuses(base, "head")).toEqual(["200"]);
    expect(pub.paths["/readyz"].get.responses["503"].content["application/json"].schema.properties.status).toBeDefined();
  });

  test("the open routes are exactly the listed ones", () => {
    const open: string[] = [];
    for (const d of [pub, admin]) for (const [p, ops] of Object.entries<any>(d.paths)) for (const [m, op] of Object.entries<any>(ops)) if (op.security?.length === 0) open.push(`${m.toUpperCase()} ${p}`);
    expect(open.sort()).toEqual([...OPEN].sort());
  });

  test("each example matches the schema it illustrates", () => {
    const bad: string[] = [];
    for (const route of t.app.routes) {
      const answers = route.hooks?.response as Record<string, TSchema> | undefined;
      if (!answers || typeof answers !== "object") continue;
      for (const [status, schema] of Object.entries(answers))
        for (const ex of (schema as { examples?: unknown[] }).examples ?? []) if (!Value.Check(schema, ex)) bad.push(`${route.method} ${route.path} ${status}: ${[...Value.Errors(schema, ex)][0]?.message}`);
    }
    expect(bad).toEqual([]);
  });

  test("the documented answers are what the routes answer: every GET without parameters, called with the admin key", async () => {
    const mismatches: string[] = [];
    let checked = 0;
    for (const route of t.app.routes) {
      if (route.method !== "GET" || route.path.includes(":") || isDocumentOrPreflight(route.method, route.path)) continue;
      const answers = route.hooks?.response as Record<string, TSchema> | undefined;
      const r = await t.req(route.path, { headers: { Authorization: "Bearer test-admin-key" } });
      const schema = answers?.[r.status];
      if (!schema) {
        mismatches.push(`GET ${route.path}: ${r.status} is not documented`);
        continue;
      }
      if (!r.headers.get("content-type")?.startsWith("application/json")) continue;
      checked++;
      const body = await r.json();
      if (!Value.Check(schema, body)) mismatches.push(`GET ${route.path}: ${[...Value.Errors(schema, body)].map((e) => `${e.path} ${e.message}`).join("; ")}`);
    }
    expect(mismatches).toEqual([]);
    expect(checked).toBeGreaterThan(25);
  });
});

describe("admin query strings are schemas (issue 34 item 5)", () => {
  test.each([
    ["/admin/accounts", ["page", "page_size", "q"]],
    ["/admin/requests", ["from", "to", "status", "limit", "cursor"]],
    ["/admin/audit", ["ok", "actor", "route", "limit"]],
    ["/admin/usage", ["from", "to", "group_by", "format"]],
    ["/admin/usage/series", ["bucket", "group_by", "format"]],
    ["/admin/version/releases", ["limit", "include_prereleases", "force"]],
    ["/admin/dev/raw-samples/query", ["q", "limit"]],
    ["/admin/models", ["resolve"]],
  ])("GET %s lists its query parameters", (path, names) => {
    const listed = (admin.paths[path].get.parameters ?? []).filter((p: any) => p.in === "query").map((p: any) => p.name);
    for (const n of names) expect(listed).toContain(n);
  });

  test("a bad value is the admin 400 naming the parameter; a good one is converted", async () => {
    const call = (q: string) => t.req(`/admin/accounts?${q}`, { headers: { Authorization: "Bearer test-admin-key" } });
    for (const [q, message] of <[string, string][]>[
      ["page_size=5001", "page_size (query) must be an integer between 1 and 5000."],
      ["page_size=ten", "page_size (query) must be an integer between 1 and 5000."],
      ["page=0", "page (query) must be an integer of at least 1."],
    ]) {
      const r = await call(q);
      expect(r.status).toBe(400);
      expect(await r.json()).toEqual({ detail: message });
    }
    const ok = await call("page=2&page_size=5");
    expect(await ok.json()).toMatchObject({ page: 2, page_size: 5 });
    // Unauthenticated, the query is not even read: 401 whatever it holds.
    expect((await t.req("/admin/accounts?page=x")).status).toBe(401);
  });
});

describe("the business answers are their documented shapes (issue 34 item 5)", () => {
  test("count_tokens, embeddings and countTokens answers, and each protocol's 400, match the schema documented for their status", async () => {
    const b = await makeTestApp({ config: { keys: ["sk-doc"], embeddings: { provider: "deterministic" } } as never });
    try {
      const cases: [string, string, unknown][] = [
        ["/v1/messages/count_tokens", "/v1/messages/count_tokens", { model: "claude-sonnet-4", messages: [{ role: "user", content: "hi" }] }],
        ["/v1/embeddings", "/v1/embeddings", { model: "text-embedding-3-small", input: ["hi", "there"] }],
        ["/v1beta/models/gemini-2.5-pro:countTokens", "/v1beta/models/:modelAction", { contents: [{ parts: [{ text: "hi" }] }] }],
        ["/v1/chat/completions", "/v1/chat/completions", { model: "gpt-4o" }],
        ["/v1/messages", "/v1/messages", { model: "claude-sonnet-4" }],
        ["/v1beta/models/gemini-2.5-pro:generateContent", "/v1beta/models/:modelAction", { contents: "not a list" }],
      ];
      const statuses = new Set<number>();
      for (const [url, template, body] of cases) {
        const r = await b.req(url, { method: "POST", headers: { Authorization: "Bearer sk-doc" }, json: body });
        // The documented answers, as the OpenAPI generator gets them (public-answers.ts: not on the route).
        const schema = publicAnswerReferences(b.app, PUBLIC_ANSWERS)[template]?.post?.response[r.status] as TSchema | undefined;
        expect(schema).toBeDefined();
        const answer = await r.json();
        expect([url, Value.Check(schema!, answer)]).toEqual([url, true]);
        statuses.add(r.status);
      }
      expect([...statuses].sort()).toEqual([200, 400]);
    } finally {
      await b.built.close();
    }
  });
});

describe("the admin writes answer their documented shapes (issue 34 item 5)", () => {
  test("keys, proxies, accounts, health and history: each answer matches the schema documented for its status", async () => {
    const mismatches: string[] = [];
    const statuses = new Set<number>();
    const call = async (method: string, url: string, template: string, json?: unknown) => {
      const r = await t.req(url, { method, headers: { Authorization: "Bearer test-admin-key" }, json });
      const route = t.app.routes.find((x) => x.method === method && x.path === template)!;
      const schema = (route.hooks?.response as Record<number, TSchema>)[r.status];
      const answer = await r.json();
      statuses.add(r.status);
      if (!schema) mismatches.push(`${method} ${url}: ${r.status} is not documented`);
      else if (!Value.Check(schema, answer)) mismatches.push(`${method} ${url}: ${[...Value.Errors(schema, answer)].map((e) => `${e.path} ${e.message}`).join("; ")}`);
      return answer;
    };
    await call("POST", "/admin/keys", "/admin/keys", { key: "sk-doc-1", name: "doc" });
    await call("PUT", "/admin/keys/sk-doc-1", "/admin/keys/:key", { remark: "r" });
    await call("POST", "/admin/keys", "/admin/keys", { key: "sk-doc-1" });
    const proxy = await call("POST", "/admin/proxies", "/admin/proxies", { type: "http", host: "127.0.0.1", port: 9 });
    await call("PUT", `/admin/proxies/${proxy.proxy.id}`, "/admin/proxies/:id", { name: "renamed" });
    const account = await call("POST", "/admin/accounts", "/admin/accounts", { email: "doc@example.com", password: "pw-doc" });
    await call("PUT", `/admin/accounts/${account.identifier}/proxy`, "/admin/accounts/:id/proxy", { proxy_id: proxy.proxy.id });
    await call("GET", `/admin/accounts/${account.identifier}/health`, "/admin/accounts/:id/health");
    await call("POST", `/admin/accounts/${account.identifier}/health/reset`, "/admin/accounts/:id/health/reset", {});
    await call("PUT", "/admin/chat-history/settings", "/admin/chat-history/settings", { limit: 50 });
    await call("DELETE", `/admin/proxies/${proxy.proxy.id}`, "/admin/proxies/:id");
    await call("DELETE", `/admin/accounts/${account.identifier}`, "/admin/accounts/:id");
    await call("DELETE", "/admin/keys/sk-doc-1", "/admin/keys/:key");
    await call("DELETE", "/admin/keys/sk-doc-1", "/admin/keys/:key");
    expect(mismatches).toEqual([]);
    expect([...statuses].sort()).toEqual([200, 404, 409]);
  });
});


describe("the answers the console reads are their documented shapes, with records in them (issue 34 item 5)", () => {
  test("accounts, proxies, keys, config, settings, traffic and chat history: each list holds a record and matches its schema", async () => {
    const b = await makeTestApp({
      config: {
        api_keys: [{ key: "sk-doc", name: "doc" }],
        accounts: [{ email: "doc@example.com", password: "pw-doc", proxy_id: "proxy-doc" }],
        proxies: [{ id: "proxy-doc", type: "http", host: "127.0.0.1", port: 9 }],
      } as never,
    });
    try {
      const history = b.built.ctx.chatHistory;
      const id = history.start({ surface: "chat", model: "gpt-4o", stream: false, caller_id: "caller:doc", request_messages: [{ role: "user", content: "hi" }], user_input: "hi" })!;
      history.finish(id, { status: "success", status_code: 200, finish_reason: "stop", content: "Hello.", usage: { input_tokens: 1, output_tokens: 2 } });
      const mismatches: string[] = [];
      const call = async (method: string, url: string, template: string, json?: unknown) => {
        const r = await b.req(url, { method, headers: { Authorization: "Bearer test-admin-key" }, json });
        const route = b.app.routes.find((x) => x.method === method && x.path === template)!;
        const schema = (route.hooks?.response as Record<number, TSchema>)[r.status];
        const answer = await r.json();
        if (r.status !== 200) mismatches.push(`${method} ${url}: ${r.status}`);
        else if (!Value.Check(schema!, answer)) mismatches.push(`${method} ${url}: ${[...Value.Errors(schema!, answer)].map((e) => `${e.path} ${e.message}`).join("; ")}`);
        return answer;
      };
      const lists = {
        accounts: (await call("GET", "/admin/accounts", "/admin/accounts")).items,
        proxies: (await call("GET", "/admin/proxies", "/admin/proxies")).items,
        keys: (await call("GET", "/admin/keys", "/admin/keys")).keys,
        api_keys: (await call("GET", "/admin/config", "/admin/config")).api_keys,
        traffic: (await call("GET", "/admin/traffic", "/admin/traffic")).accounts,
        history: (await call("GET", "/admin/chat-history", "/admin/chat-history")).items,
        messages: (await call("GET", `/admin/chat-history/${id}`, "/admin/chat-history/:id")).item.request_messages,
      };
      const settings = await call("GET", "/admin/settings", "/admin/settings");
      const saved = await call("PUT", "/admin/settings", "/admin/settings", { runtime: { account_max_inflight: 3 } });
      expect(mismatches).toEqual([]);
      // Each list holds one record, so the item schemas were checked, not only the envelopes.
      expect(Object.fromEntries(Object.entries(lists).map(([k, v]) => [k, v.length]))).toEqual({ accounts: 1, proxies: 1, keys: 1, api_keys: 1, traffic: 1, history: 1, messages: 1 });
      expect([settings.runtime.account_max_inflight, saved.settings.runtime.account_max_inflight]).toEqual([2, 3]);
    } finally {
      await b.built.close();
    }
  });
});
