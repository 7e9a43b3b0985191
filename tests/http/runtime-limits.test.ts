// Issue 15 item 9: what the HTTP parser answers before the gateway sees a request. Bun replies to oversized
// headers or URLs (431) and to a malformed Content-Length (400) itself, with no hook to shape the answer
// (its `error` handler only sees errors thrown by `fetch`), so these tests pin what the runtime does: a bare
// status and a closed connection, never a hung one (docs/choices.md). A broken chunked framing does reach the
// gateway, as a failing body read: that is the client's 400, never an "unhandled error" 500 in the log.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startLiveGateway, type LiveGateway } from "../helpers/gateway";
import { rawRequest } from "../helpers/raw-http";

let g: LiveGateway;
beforeAll(async () => {
  g = await startLiveGateway({ env: { SVC_CORE_BASE_URL: "http://127.0.0.1:9" } });
});
afterAll(() => g.stop());

const post = (path: string, extra: string, body = "") =>
  rawRequest(g.port, `POST ${path} HTTP/1.1\r\nHost: gateway.test\r\nAuthorization: Bearer sk-x\r\n${extra}Connection: close\r\n\r\n${body}`);

describe("answered by the runtime before the gateway (documented, not shaped)", () => {
  test("an oversized header → 431 and the connection is closed", async () => {
    const r = await rawRequest(g.port, `GET /healthz HTTP/1.1\r\nHost: gateway.test\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(r.status).toBe(431);
  });

  test("an oversized URL → 431 and the connection is closed", async () => {
    const r = await rawRequest(g.port, `GET /v1/models?q=${"a".repeat(20_000)} HTTP/1.1\r\nHost: gateway.test\r\n\r\n`);
    expect(r.status).toBe(431);
  });

  test.each(["abc", "-1", "1, 1", "+5"])("Content-Length %p → 400 and the connection is closed", async (cl) => {
    const r = await post("/v1/chat/completions", `Content-Length: ${cl}\r\n`, "{}");
    expect(r.status).toBe(400);
  });
});

describe("a broken chunked framing reaches the body reader", () => {
  test("→ 400, logged as 400 invalid_request, never an unhandled 500", async () => {
    const r = await post("/v1/chat/completions?probe=bad-chunk", "Transfer-Encoding: chunked\r\nContent-Type: application/json\r\n", "zz\r\n{}\r\n0\r\n\r\n");
    expect(r.status).toBe(400);
    let line: string | undefined;
    while (!(line = g.logs.find((l) => l.includes('"msg":"request"') && l.includes("probe=bad-chunk")))) await Bun.sleep(10);
    expect(JSON.parse(line)).toMatchObject({ status: 400, error_code: "invalid_request" });
    expect(g.logs.some((l) => l.includes("unhandled error"))).toBe(false);
  });
});
