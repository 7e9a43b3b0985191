import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../helpers/app";

describe("CORS (gateway.md §8, D3.2)", async () => {
  const t = await makeTestApp();

  test.each(["/v1/models", "/msgapi/v1/models", "/v1beta/models", "/healthz"])("%s echoes the Origin and exposes the request id", async (path) => {
    const r = await t.req(path, { headers: { Origin: "https://app.example" } });
    expect(r.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(r.headers.get("vary")).toBe("Origin");
    expect(r.headers.get("access-control-expose-headers")).toContain("X-Request-Id");
  });

  test("without an Origin the answer is *", async () => {
    const r = await t.req("/v1/models");
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
  });

  test("a preflight answers 204 without auth, with the default headers and the declared third-party headers", async () => {
    const r = await t.req("/admin/config", {
      method: "OPTIONS",
      headers: { Origin: "http://x.test", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "x-stainless-lang, X-Custom-Thing" },
    });
    expect(r.status).toBe(204);
    const allowed = r.headers.get("access-control-allow-headers")!.toLowerCase().split(/,\s*/);
    for (const h of ["content-type", "authorization", "x-api-key", "x-svc-target-account", "x-svc-source", "x-host-protection-bypass", "x-alt-api-key", "msgapi-version", "msgapi-beta", "x-stainless-lang", "x-custom-thing", "x-goog-api-key", "anthropic-version"])
      expect(allowed).toContain(h);
    expect(r.headers.get("access-control-allow-methods")).toBe("GET, HEAD, POST, PUT, DELETE, OPTIONS");
    expect(r.headers.get("access-control-max-age")).toBe("600");
    expect(r.headers.get("access-control-allow-credentials")).toBeNull();
  });

  test("X-Svc-Internal-Token is never allowed, in any letter case", async () => {
    const r = await t.req("/v1/chat/completions", {
      method: "OPTIONS",
      headers: { "Access-Control-Request-Headers": "X-SVC-INTERNAL-TOKEN, x-svc-internal-token, content-type" },
    });
    expect(r.headers.get("access-control-allow-headers")!.toLowerCase()).not.toContain("internal-token");
  });

  test("private network access is granted when asked", async () => {
    const r = await t.req("/v1/models", { method: "OPTIONS", headers: { "Access-Control-Request-Private-Network": "true" } });
    expect(r.headers.get("access-control-allow-private-network")).toBe("true");
  });
});
