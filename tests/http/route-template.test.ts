// The access log's route template (D3.6) comes from the route Elysia matched.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { routeTemplate } from "../../src/http/route-template";
import { startLiveGateway, type LiveGateway } from "../helpers/gateway";

let g: LiveGateway;
beforeAll(async () => {
  g = await startLiveGateway({ env: { SVC_CORE_BASE_URL: "http://127.0.0.1:9" }, config: { keys: ["sk-x"] } });
});
afterAll(() => g.stop());

async function logged(path: string): Promise<Record<string, unknown>> {
  for (;;) {
    const line = g.logs.map((l) => JSON.parse(l)).find((l) => l.msg === "request" && l.path === path);
    if (line) return line;
    await Bun.sleep(5);
  }
}

describe("route template", () => {
  test("Elysia's :param becomes {param}; a fixed path is kept", () => {
    expect(routeTemplate("/v1/responses/:id")).toBe("/v1/responses/{id}");
    expect(routeTemplate("/admin/accounts/:id/proxy")).toBe("/admin/accounts/{id}/proxy");
    expect(routeTemplate("/v1/chat/completions")).toBe("/v1/chat/completions");
    // Asked twice, answered the same (the second from the cache).
    expect(routeTemplate("/v1/responses/:id")).toBe("/v1/responses/{id}");
  });

  test("the access log carries the matched template: a handled request, a validation failure, an alias", async () => {
    await fetch(`${g.url}/v1/responses/resp_123`, { headers: { Authorization: "Bearer sk-x" } });
    await fetch(`${g.url}/v1/messages?probe=bad`, { method: "POST", headers: { "x-api-key": "sk-x" }, body: JSON.stringify({ model: "m", messages: "x" }) });
    await fetch(`${g.url}/chat/completions?probe=alias`, { method: "POST", headers: { Authorization: "Bearer sk-x" }, body: JSON.stringify({ messages: [] }) });
    expect(await logged("/v1/responses/resp_123")).toMatchObject({ route: "/v1/responses/{id}", status: 404 });
    expect(await logged("/v1/messages?probe=bad")).toMatchObject({ route: "/v1/messages", status: 400, error_code: "invalid_request" });
    expect(await logged("/chat/completions?probe=alias")).toMatchObject({ route: "/chat/completions", status: 400 });
  });
});
