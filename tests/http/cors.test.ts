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

describe("CORS on errors and through the plugin (issue 18 item 5)", async () => {
  const t = await makeTestApp({ config: { keys: ["sk-x"] } });

  test("a 401 and a 404 carry the same CORS headers as a success", async () => {
    for (const [path, status] of [["/v1/chat/completions", 401], ["/v1/nothing-here", 404]] as const) {
      const r = await t.req(path, { method: path.includes("chat") ? "POST" : "GET", headers: { Origin: "https://app.example" }, json: path.includes("chat") ? {} : undefined });
      expect(r.status).toBe(status);
      expect(r.headers.get("access-control-allow-origin")).toBe("https://app.example");
      expect(r.headers.get("vary")).toBe("Origin");
      expect(r.headers.get("access-control-expose-headers")).toContain("Retry-After");
      expect(r.headers.get("x-request-id")).toBeTruthy();
    }
  });

  test("a preflight on an unknown path is still 204, with the request id and no credentials header", async () => {
    const r = await t.req("/no/such/route", { method: "OPTIONS", headers: { Origin: "http://x.test", "Access-Control-Request-Method": "GET" } });
    expect(r.status).toBe(204);
    expect(r.headers.get("x-request-id")).toBeTruthy();
    expect(r.headers.get("access-control-allow-credentials")).toBeNull();
    expect(r.headers.get("access-control-allow-origin")).toBe("http://x.test");
  });

  test("an ordinary answer carries origin, Vary and exposed headers only, not the preflight's lists", async () => {
    const r = await t.req("/v1/models", { headers: { Origin: "https://app.example" } });
    expect(r.headers.get("access-control-allow-headers")).toBeNull();
    expect(r.headers.get("access-control-allow-methods")).toBeNull();
    expect(r.headers.get("access-control-max-age")).toBeNull();
  });

  test("a requested header is allowed once, in its first spelling", async () => {
    const r = await t.req("/v1/models", { method: "OPTIONS", headers: { "Access-Control-Request-Headers": "content-type, X-Extra, x-extra" } });
    const allowed = r.headers.get("access-control-allow-headers")!.split(", ");
    expect(allowed.filter((h) => h.toLowerCase() === "content-type")).toEqual(["Content-Type"]);
    expect(allowed.filter((h) => h.toLowerCase() === "x-extra")).toEqual(["X-Extra"]);
  });
});
