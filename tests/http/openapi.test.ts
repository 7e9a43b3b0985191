// Issue 18 item 7: GET /openapi.json is generated from the routes' schemas; every business route with a body
// carries its request schema, every admin route is listed, and the document is valid OpenAPI 3.x.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { startLiveGateway, type LiveGateway } from "../helpers/gateway";

let g: LiveGateway;
let doc: any;
beforeAll(async () => {
  g = await startLiveGateway({ env: { SVC_CORE_BASE_URL: "http://127.0.0.1:9" } });
  const r = await fetch(`${g.url}/openapi.json`);
  expect(r.status).toBe(200);
  doc = await r.json();
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
  test("is a valid OpenAPI 3.x document", async () => {
    expect(doc.openapi).toMatch(/^3\./);
    const result = await new Validator().validate(doc);
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

  test("every admin route the gateway serves is in it", async () => {
    const listed = Object.keys(doc.paths).filter((p) => p.startsWith("/admin"));
    for (const p of ["/admin/login", "/admin/verify", "/admin/settings", "/admin/keys", "/admin/keys/{key}", "/admin/proxies", "/admin/accounts", "/admin/config"])
      expect(listed).toContain(p);
  });

  test("every POST and PUT route but the streamed file upload carries a JSON request schema", () => {
    const missing: string[] = [];
    let checked = 0;
    for (const [path, ops] of Object.entries<any>(doc.paths))
      for (const method of ["post", "put"]) {
        if (!ops[method] || path === "/v1/files" || path === "/files") continue;
        checked++;
        if (!ops[method].requestBody?.content?.["application/json"]?.schema) missing.push(`${method} ${path}`);
      }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });

  test("every templated path lists its path parameters", () => {
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
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
