// Business credentials (gateway.md "Authentication", D5.1–D5.3) and business error shapes (D3.4, D3.5, D4).
import { describe, expect, test } from "bun:test";
import { extractBusinessCredential } from "../../src/http/credentials";
import { makeTestApp } from "../helpers/app";

function cred(headers: Record<string, string>, query = "") {
  const url = new URL(`http://localhost/v1/x${query}`);
  return extractBusinessCredential(new Request(url, { headers }), url.search);
}

describe("credential forms and precedence (D5.1)", () => {
  test.each([
    [{ Authorization: "Bearer tok-a" }, "", "tok-a", "bearer"],
    [{ Authorization: "bearer  tok-b " }, "", "tok-b", "bearer"],
    [{ "x-api-key": "tok-c" }, "", "tok-c", "x-api-key"],
    [{ "x-alt-api-key": "tok-d" }, "", "tok-d", "x-alt-api-key"],
    [{ "x-goog-api-key": "tok-e" }, "", "tok-e", "x-goog-api-key"],
    [{}, "?key=tok-f", "tok-f", "query-key"],
    [{}, "?api_key=tok-g", "tok-g", "query-api_key"],
  ])("%j %s → %s", (headers, query, token, form) => {
    expect(cred(headers, query)).toEqual({ token, form: form as never });
  });

  test("first present non-empty form wins: Bearer > x-api-key > x-alt-api-key > x-goog-api-key > ?key > ?api_key", () => {
    const all = { Authorization: "Bearer 1", "x-api-key": "2", "x-alt-api-key": "3", "x-goog-api-key": "4" };
    expect(cred(all, "?key=5&api_key=6")!.token).toBe("1");
    expect(cred({ ...all, Authorization: "Basic abc" }, "?key=5")!.token).toBe("2");
    expect(cred({ "x-api-key": "", "x-alt-api-key": "3", "x-goog-api-key": "4" })!.token).toBe("3");
    expect(cred({ "x-goog-api-key": "4" }, "?key=5")!.token).toBe("4");
    expect(cred({}, "?key=&api_key=6")!.token).toBe("6");
    expect(cred({ Authorization: "Token x" })).toBeNull();
  });
});

describe("business errors in each surface's shape", async () => {
  const t = await makeTestApp({ config: { keys: ["sk-x"] } });

  test("no credential → 401 missing_credentials (chat, messages, generate shapes)", async () => {
    const chat = await t.req("/v1/chat/completions", { method: "POST", json: { model: "gpt-4o", messages: [] } });
    expect(chat.status).toBe(401);
    expect((await chat.json()).error).toMatchObject({ type: "authentication_error", code: "missing_credentials" });
    const msg = await t.req("/v1/messages", { method: "POST", json: {} });
    expect(await msg.json()).toMatchObject({ type: "error", error: { type: "authentication_error", code: "missing_credentials" } });
    const gen = await t.req("/v1beta/models/gemini-2.5-flash:generateContent", { method: "POST", json: {} });
    expect((await gen.json()).error).toMatchObject({ code: 401, status: "UNAUTHENTICATED" });
  });

  test("invalid JSON → 400 invalid_json, whatever the Content-Type", async () => {
    const r = await t.req("/v1/chat/completions", { method: "POST", headers: { Authorization: "Bearer sk-x", "Content-Type": "text/plain" }, body: "{oops" });
    expect(r.status).toBe(400);
    expect((await r.json()).error.code).toBe("invalid_json");
  });

  test("a declared body over 100 MiB → 413 request_too_large before anything is read", async () => {
    const r = await t.req("/v1/chat/completions", {
      method: "POST",
      headers: { Authorization: "Bearer sk-x", "Content-Length": String(100 * 1024 * 1024 + 1) },
      body: "{}",
    });
    expect(r.status).toBe(413);
    expect((await r.json()).error.code).toBe("request_too_large");
  });

  test("an unknown model → 400 model_not_found; a retired one → 400 model_retired", async () => {
    const r = await t.req("/v1/chat/completions", { method: "POST", headers: { Authorization: "Bearer sk-x" }, json: { model: "foo-bar", messages: [{ role: "user", content: "x" }] } });
    expect((await r.json()).error).toMatchObject({ code: "model_not_found", param: "model" });
    const r2 = await t.req("/v1/chat/completions", { method: "POST", headers: { Authorization: "Bearer sk-x" }, json: { model: "gpt-3.5-turbo", messages: [{ role: "user", content: "x" }] } });
    expect((await r2.json()).error.code).toBe("model_retired");
  });

  test("files: a non-multipart body → 400 unsupported_media_type", async () => {
    const r = await t.req("/v1/files", { method: "POST", headers: { Authorization: "Bearer sk-x" }, json: {} });
    expect(r.status).toBe(400);
    expect((await r.json()).error.code).toBe("unsupported_media_type");
  });

  test("embeddings without a provider → 501 embeddings_not_configured", async () => {
    const r = await t.req("/v1/embeddings", { method: "POST", headers: { Authorization: "Bearer anything" }, json: { model: "text-embedding-3-small", input: "x" } });
    expect(r.status).toBe(501);
    expect((await r.json()).error.code).toBe("embeddings_not_configured");
  });

  test("the access log line carries the caller fingerprint, never the key", async () => {
    await t.req("/v1/models?key=sk-secret-in-query");
    const { servingHandler } = await import("../../src/http/serve-handler");
    const handler = servingHandler(t.app);
    await handler(new Request("http://localhost/v1/models?key=sk-secret-in-query"));
    const line = t.logs.find((l) => l.includes('"msg":"request"') && l.includes("/v1/models"))!;
    expect(line).toContain("key=***");
    expect(line).not.toContain("sk-secret-in-query");
  });
});
