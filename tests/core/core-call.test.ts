// Ordinary calls to core (core/http.ts coreCall, issue 35): the socket client's whole-answer path and fetch's give
// the same status, text and content type for every shape of answer (length, chunked, close-delimited, gzip, br,
// split at every read), and fail alike — a deadline, the caller's abort, a refused port, a body cut short — with
// the classification and wording coreFetch had. Also the deadline queue (core/deadlines.ts) on its own.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { coreCall } from "../../src/core/http";
import { CoreError } from "../../src/core/errors";
import { closeIdleConnections, idleConnectionCount } from "../../src/core/http1/client";
import { addDeadline, clearDeadline } from "../../src/core/deadlines";
import { WIRE_DEFAULTS } from "../../src/core/wire";
import { freePort } from "../helpers/binary";
import { randomSplits } from "../helpers/chunking";

const enc = new TextEncoder();
const wire = (client: "socket" | "fetch", timeout = 5000) => ({ ...WIRE_DEFAULTS, call_client: client, request_timeout_ms: timeout });

interface Answer {
  status?: number;
  framing: "length" | "chunked" | "close";
  body: Uint8Array;
  headers?: string[];
  /** Write the head and this many body bytes, then close. */
  cutAfter?: number;
  /** Never answer. */
  silent?: boolean;
}
let answer: Answer = { framing: "length", body: new Uint8Array() };
let seed = 1;
const seen: string[] = [];

function bytesOf(a: Answer): Uint8Array {
  const head = [`HTTP/1.1 ${a.status ?? 200} X`, ...(a.headers ?? ["Content-Type: application/json"])];
  let body = a.body;
  if (a.framing === "length") head.push(`Content-Length: ${body.length}`);
  if (a.framing === "chunked") {
    head.push("Transfer-Encoding: chunked");
    const parts = randomSplits(body, seed, 7).flatMap((p) => [enc.encode(`${p.length.toString(16)}\r\n`), p, enc.encode("\r\n")]);
    body = Buffer.concat([...parts, enc.encode("0\r\n\r\n")]);
  }
  if (a.framing === "close") head.push("Connection: close");
  const all = Buffer.concat([enc.encode(head.join("\r\n") + "\r\n\r\n"), body]);
  return a.cutAfter === undefined ? all : all.subarray(0, all.length - body.length + a.cutAfter);
}

let server: Bun.TCPSocketListener<{ buf: string }>;
let base = "";
beforeAll(() => {
  server = Bun.listen<{ buf: string }>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(s) {
        s.data = { buf: "" };
      },
      async data(s, d) {
        s.data.buf += d.toString("latin1");
        const end = s.data.buf.indexOf("\r\n\r\n");
        if (end < 0) return;
        const len = Number(/content-length: (\d+)/i.exec(s.data.buf.slice(0, end))?.[1] ?? 0);
        if (s.data.buf.length < end + 4 + len) return;
        seen.push(s.data.buf);
        s.data.buf = "";
        const a = answer;
        if (a.silent) return;
        // The answer in hostile pieces, each its own write.
        for (const piece of randomSplits(bytesOf(a), seed++, 5)) {
          s.write(piece);
          await Bun.sleep(0);
        }
        if (a.framing === "close" || a.cutAfter !== undefined) s.end();
      },
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => {
  closeIdleConnections();
  server.stop(true);
});

const json = JSON.stringify({ code: 0, msg: "", data: { biz_code: 0, biz_msg: "", biz_data: { id: "s-1", text: "你好，世界 😀".repeat(50) } } });
const shapes: [string, Answer][] = [
  ["Content-Length", { framing: "length", body: enc.encode(json) }],
  ["chunked", { framing: "chunked", body: enc.encode(json) }],
  ["close-delimited", { framing: "close", body: enc.encode(json) }],
  ["gzip", { framing: "chunked", body: gzipSync(json), headers: ["Content-Type: application/json", "Content-Encoding: gzip"] }],
  ["br", { framing: "length", body: brotliCompressSync(json), headers: ["Content-Type: application/json", "Content-Encoding: br"] }],
  ["a 401 with an HTML page", { status: 401, framing: "length", body: enc.encode("<html>no</html>"), headers: ["Content-Type: text/html; charset=utf-8"] }],
  ["an empty 200", { framing: "length", body: new Uint8Array(), headers: [] }],
];

describe("coreCall: the socket client's whole answer reads as fetch's", () => {
  test.each(shapes)("%s", async (_name, a) => {
    answer = a;
    for (let i = 0; i < 3; i++) {
      const viaFetch = await coreCall(wire("fetch"), base, { method: "POST", path: "/api/v0/chat_session/create", token: "tok-secret", json: { agent: "chat" } });
      const viaSocket = await coreCall(wire("socket"), base, { method: "POST", path: "/api/v0/chat_session/create", token: "tok-secret", json: { agent: "chat" } });
      expect(viaSocket).toEqual(viaFetch);
      expect(viaSocket.status).toBe(a.status ?? 200);
    }
  });

  test("a JSON answer read to its end leaves its connection for the next call", async () => {
    closeIdleConnections();
    answer = shapes[0]![1];
    await coreCall(wire("socket"), base, { method: "POST", path: "/x", json: {} });
    expect(idleConnectionCount()).toBe(1);
    await coreCall(wire("socket"), base, { method: "POST", path: "/x", json: {} });
    expect(idleConnectionCount()).toBe(1);
  });

  test("the request carries the identity headers, the bearer token and the JSON body", async () => {
    answer = shapes[0]![1];
    const before = seen.length;
    await coreCall({ ...wire("socket"), user_agent: "CoreApp/9 Test" }, base, { method: "POST", path: "/api/v0/chat/create_pow_challenge", token: "tok-1", json: { target_path: "/t" } });
    const req = seen[before]!;
    expect(req).toStartWith("POST /api/v0/chat/create_pow_challenge HTTP/1.1\r\n");
    expect(req).toContain("User-Agent: CoreApp/9 Test\r\n");
    expect(req).toContain("authorization: Bearer tok-1\r\n");
    expect(req).toContain("Content-Type: application/json\r\n");
    expect(req).toEndWith('\r\n\r\n{"target_path":"/t"}');
  });
});

describe.each(["socket", "fetch"] as const)("coreCall over %s: failures classify as before", (client) => {
  test("no answer within the deadline: upstream_error, origin timeout, the deadline named", async () => {
    answer = { framing: "length", body: new Uint8Array(), silent: true };
    const e = await coreCall(wire(client, 150), base, { method: "POST", path: "/api/v0/chat_session/create?x=1", token: "tok-secret", json: {} }).catch((x) => x);
    expect(e).toBeInstanceOf(CoreError);
    expect(e.kind).toBe("upstream_error");
    expect(e.origin).toBe("timeout");
    expect(e.message).toBe("/api/v0/chat_session/create: core did not answer within 150 ms");
  });

  test("the caller's abort ends the call with the caller's reason", async () => {
    answer = { framing: "length", body: new Uint8Array(), silent: true };
    const controller = new AbortController();
    const reason = new DOMException("client went away", "AbortError");
    const call = coreCall(wire(client), base, { method: "POST", path: "/x", json: {}, signal: controller.signal });
    setTimeout(() => controller.abort(reason), 30);
    expect(await call.catch((x) => x)).toBe(reason);
  });

  test("an already aborted signal sends nothing", async () => {
    const before = seen.length;
    const controller = new AbortController();
    controller.abort(new Error("gone"));
    expect(await coreCall(wire(client), base, { method: "POST", path: "/x", json: {}, signal: controller.signal }).catch((x) => x.message)).toBe("gone");
    expect(seen.length).toBe(before);
  });

  test("a refused port: origin network, the address and ECONNREFUSED, no token", async () => {
    const port = await freePort();
    const e = await coreCall(wire(client), `http://127.0.0.1:${port}`, { method: "POST", path: "/api/v0/users/login", token: "tok-secret", json: {} }).catch((x) => x);
    expect(e).toBeInstanceOf(CoreError);
    expect(e.origin).toBe("network");
    expect(e.message).toStartWith(`/api/v0/users/login: core unreachable at http://127.0.0.1:${port} (`);
    expect(e.message).toMatch(/ECONNREFUSED|ConnectionRefused/);
    expect(e.message).not.toContain("tok-secret");
  });

  test("a body cut short: upstream_error, origin network", async () => {
    answer = { framing: "length", body: enc.encode(json), cutAfter: 10 };
    const e = await coreCall(wire(client), base, { method: "POST", path: "/x", json: {} }).catch((x) => x);
    expect(e).toBeInstanceOf(CoreError);
    expect(e.kind).toBe("upstream_error");
    expect(e.origin).toBe("network");
  });
});

describe("the deadline queue", () => {
  const eventually = async (ok: () => boolean) => {
    for (let i = 0; i < 400 && !ok(); i++) await Bun.sleep(10);
    return ok();
  };

  test("a deadline that is not cleared expires its target once; a cleared one never", async () => {
    const fired: string[] = [];
    const a = addDeadline(20, { expire: () => fired.push("a") });
    const b = addDeadline(20, { expire: () => fired.push("b") });
    const c = addDeadline(20, { expire: () => fired.push("c") });
    clearDeadline(20, b);
    expect(await eventually(() => fired.length >= 2)).toBe(true);
    await Bun.sleep(40);
    expect(fired).toEqual(["a", "c"]);
    expect(a.target).toBeNull();
    expect(c.target).toBeNull();
  });

  test("cleared deadlines behind a live one are dropped (compaction) and never fire; other lengths fire too", async () => {
    const fired: string[] = [];
    const longer = addDeadline(60, { expire: () => fired.push("long") });
    const head = addDeadline(25, { expire: () => fired.push("head") });
    for (let i = 0; i < 9000; i++) clearDeadline(25, addDeadline(25, { expire: () => fired.push("cleared") }));
    const tail = addDeadline(25, { expire: () => fired.push("tail") });
    expect(await eventually(() => fired.length >= 3)).toBe(true);
    await Bun.sleep(40);
    expect(fired.sort()).toEqual(["head", "long", "tail"]);
    expect([longer.target, head.target, tail.target]).toEqual([null, null, null]);
  });
});
