// Issue 18 item 7: GET /openapi.json is generated from the routes' schemas; every business route with a body
// carries its request schema, and the document is valid OpenAPI 3.x. Issue 30 item 8: the admin routes are
// in a second document, GET /admin/openapi.json, behind the admin credential; the public one lists none.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { startLiveGateway, TEST_ADMIN_KEY, type LiveGateway } from "../helpers/gateway";

let g: LiveGateway;
let doc: any;
let adminDoc: any;
beforeAll(async () => {
  g = await startLiveGateway({ env: { SVC_CORE_BASE_URL: "http://127.0.0.1:9" } });
  const r = await fetch(`${g.url}/openapi.json`);
  expect(r.status).toBe(200);
  doc = await r.json();
  const a = await fetch(`${g.url}/admin/openapi.json`, { headers: { Authorization: `Bearer ${TEST_ADMIN_KEY}` } });
  expect(a.status).toBe(200);
  adminDoc = await a.json();
});
afterAll(() => g.stop());

/** The OpenAPI path of an Elysia route (`:id` → `{id}`). */
const oaPath = (p: string) => p.replace(/:([A-Za-z0-9_]+)/g, "{$1}");

const BODY_ROUTES: [string, string, string[]][] = [
  ["post", "/v1/chat/completions", ["messages", "model"]],
  ["post", "/chat/completions", ["messages", "model"]],
  ["post", "/v1/responses", ["model"]],
  ["post", "/responses", ["model"]],
  ["post", "/v1/embeddings", ["model", "input"]],
  ["post", "/embeddings", ["model", "input"]],
  ["post", "/msgapi/v1/messages", ["messages", "model"]],
  ["post", "/v1/messages", ["messages", "model"]],
  ["post", "/messages", ["messages", "model"]],
  ["post", "/msgapi/v1/messages/count_tokens", ["model", "messages"]],
  ["post", "/v1/messages/count_tokens", ["model", "messages"]],
  ["post", "/messages/count_tokens", ["model", "messages"]],
  ["post", "/v1beta/models/:modelAction", ["contents"]],
  ["post", "/v1/models/:modelAction", ["contents"]],
];

describe("GET /openapi.json (issue 18 item 7)", () => {
  test.each(["public", "admin"])("the %s document is a valid OpenAPI 3.x document", async (which) => {
    const d = which === "admin" ? adminDoc : doc;
    expect(d.openapi).toMatch(/^3\./);
    const result = await new Validator().validate(d);
    if (!result.valid) console.error(JSON.stringify(result.errors).slice(0, 2000));
    expect(result.valid).toBe(true);
  });

  test.each(BODY_ROUTES)("%s %s carries its request body schema", (method, path, required) => {
    const op = doc.paths[oaPath(path)]?.[method];
    expect(op).toBeDefined();
    const schema = op.requestBody?.content?.["application/json"]?.schema;
    expect(schema).toBeDefined();
    const resolved = schema.$ref ? doc.components.schemas[schema.$ref.split("/").pop()] : schema;
    for (const field of required) expect(resolved.required).toContain(field);
  });

  test("the responses and model routes list their path parameters", () => {
    for (const path of ["/v1/responses/{id}", "/responses/{id}", "/v1/models/{id}"]) {
      const params = doc.paths[path]?.get?.parameters ?? [];
      expect(params.map((p: any) => [p.name, p.in])).toContainEqual(["id", "path"]);
    }
  });

  test("the public document lists no admin path; the admin document every admin route and nothing else", async () => {
    expect(Object.keys(doc.paths).filter((p) => p.startsWith("/admin"))).toEqual([]);
    expect(Object.keys(doc.paths)).toContain("/v1/chat/completions");
    const listed = Object.keys(adminDoc.paths);
    for (const p of ["/admin/login", "/admin/verify", "/admin/settings", "/admin/keys", "/admin/keys/{key}", "/admin/proxies", "/admin/accounts", "/admin/config"])
      expect(listed).toContain(p);
    expect(listed.length).toBeGreaterThan(30);
    expect(listed.filter((p) => !p.startsWith("/admin"))).toEqual([]);
    // Neither document describes the documents themselves.
    expect(listed).not.toContain("/admin/openapi.json");
  });

  test("the admin document asks for the admin credential: none → 401, a wrong one → 401, a console JWT → 200", async () => {
    const none = await fetch(`${g.url}/admin/openapi.json`);
    expect(none.status).toBe(401);
    expect(Object.keys(await none.json())).toEqual(["detail"]);
    expect((await fetch(`${g.url}/admin/openapi.json`, { headers: { Authorization: "Bearer not-the-admin-key" } })).status).toBe(401);
    const login = await fetch(`${g.url}/admin/login`, { method: "POST", body: JSON.stringify({ admin_key: TEST_ADMIN_KEY }) });
    const jwt = (await login.json()).token as string;
    const r = await fetch(`${g.url}/admin/openapi.json`, { headers: { Authorization: `Bearer ${jwt}` } });
    expect(r.status).toBe(200);
    expect((await r.json()).paths["/admin/keys"]).toBeDefined();
  });

  test("every POST and PUT route but the streamed file upload carries a JSON request schema", () => {
    const missing: string[] = [];
    let checked = 0;
    for (const [path, ops] of Object.entries<any>({ ...doc.paths, ...adminDoc.paths }))
      for (const method of ["post", "put"]) {
        if (!ops[method] || path === "/v1/files" || path === "/files") continue;
        checked++;
        if (!ops[method].requestBody?.content?.["application/json"]?.schema) missing.push(`${method} ${path}`);
      }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });

  test("every templated path lists its path parameters", () => {
    for (const [path, ops] of Object.entries<any>({ ...doc.paths, ...adminDoc.paths })) {
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const op of Object.values<any>(ops)) {
        const listed = (op.parameters ?? []).filter((p: any) => p.in === "path").map((p: any) => p.name);
        for (const n of names) expect(listed).toContain(n);
      }
    }
  });

  test("it needs no credential and loads nothing from the internet (no HTML page is served)", async () => {
    expect((await fetch(`${g.url}/openapi`)).status).toBe(404);
    const text = JSON.stringify(doc);
    expect(text).not.toContain("cdn.jsdelivr");
    expect(text).not.toContain("unpkg.com");
  });
});
