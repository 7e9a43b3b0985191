// The socket-level HTTP/1.1 client (src/core/http1/) against real sockets: a scripted server (plain and TLS with
// a certificate made by the test) serving captured core streams in every framing, side by side with Bun's fetch
// on the same answers (differential), plus keep-alive, a stale kept-alive connection, abort, cancel, an untrusted
// certificate, and the proxies (tinyproxy's CONNECT, microsocks) in front of a TLS origin.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { gzipSync } from "node:zlib";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { closeIdleConnections, idleConnectionCount, socketFetch } from "../../src/core/http1/client";
import { ProxyFailure } from "../../src/core/http1/connect";
import { coreFetch } from "../../src/core/http";
import { WIRE_DEFAULTS } from "../../src/core/wire";
import { randomSplits } from "../helpers/chunking";
import { loadVectors } from "../helpers/vectors";
import { scratchDir } from "../helpers/scratch";
import { freePort } from "../helpers/binary";
import { requireTool } from "../helpers/require-tool";

const enc = new TextEncoder();
/** The TLS servers' certificates are made by the test with openssl. */
const HAVE_OPENSSL = requireTool(import.meta.path, "openssl", Bun.which("openssl") !== null, "openssl not installed (apt-get install -y openssl)");
const captures = loadVectors<{ cases: { id: string; body_lines: string[] }[] }>("sse-stream-collect.json").cases.map((c) => ({ id: c.id, body: c.body_lines.join("\n") + "\n\n" }));
captures.push({ id: "utf-8 split anywhere", body: 'data: {"p":"response/fragments/-1/content","o":"APPEND","v":"orld，世界 😀"}\n\n'.repeat(40) });

type Framing = "length" | "chunked" | "close";
interface Script {
  status?: number;
  framing: Framing;
  body: Uint8Array;
  headers?: string[];
  /** Stop after the head and this many body bytes, the connection held open. */
  stallAfter?: number;
  /** Close the connection after the answer even when kept alive. */
  closeAfter?: boolean;
  /** A re-used connection's request is met with a close, no answer (a server's keep-alive timeout racing it). */
  dropReused?: boolean;
}

let cert = "";
let key = "";
const requests: string[] = [];
let connections = 0;
/** Answers the servers have written to their end. */
let answersWritten = 0;
let script: Script = { framing: "length", body: new Uint8Array() };
const closedSockets: number[] = [];

function wire(s: Script, seed: number): Uint8Array[] {
  const head = [`HTTP/1.1 ${s.status ?? 200} OK`, "Content-Type: text/event-stream; charset=utf-8", ...(s.headers ?? [])];
  let body = s.body;
  if (s.framing === "length") head.push(`Content-Length: ${body.length}`);
  if (s.framing === "chunked") {
    head.push("Transfer-Encoding: chunked");
    const parts = randomSplits(body, seed, 40).flatMap((p) => [enc.encode(`${p.length.toString(16)}\r\n`), p, enc.encode("\r\n")]);
    body = Buffer.concat([...parts, enc.encode("0\r\n\r\n")]);
  }
  if (s.framing === "close" || s.closeAfter) head.push("Connection: close");
  const all = Buffer.concat([enc.encode(head.join("\r\n") + "\r\n\r\n"), s.stallAfter === undefined ? body : body.subarray(0, s.stallAfter)]);
  return randomSplits(new Uint8Array(all), seed, 23);
}

type Served = { buf: string; id: number; n: number };
const sockets = new Map<number, Bun.Socket<Served>>();
function handlers() {
  return {
    open(s: Bun.Socket<Served>) {
      s.data = { buf: "", id: ++connections, n: 0 };
      sockets.set(s.data.id, s);
    },
    async data(s: Bun.Socket<Served>, d: Buffer) {
      s.data.buf += d.toString("latin1");
      const end = s.data.buf.indexOf("\r\n\r\n");
      if (end < 0) return;
      const len = Number(/content-length: (\d+)/i.exec(s.data.buf.slice(0, end))?.[1] ?? 0);
      if (s.data.buf.length < end + 4 + len) return;
      const request = s.data.buf;
      s.data.buf = "";
      const sc = script;
      if (++s.data.n > 1 && sc.dropReused) return void s.end();
      requests.push(request);
      // Pieces written one event-loop turn apart: the client sees the answer in many reads.
      for (const piece of wire(sc, connections)) {
        s.write(piece);
        await Bun.sleep(0);
      }
      answersWritten++;
      if (sc.stallAfter === undefined && (sc.framing === "close" || sc.closeAfter)) s.end();
    },
    close(s: { data: Served }) {
      closedSockets.push(s.data?.id);
    },
  };
}

let plain: Bun.TCPSocketListener<Served>;
let secure: Bun.TCPSocketListener<Served>;
/** A TLS server whose certificate names another host (other.test), trusted as a CA by the client. */
let otherName: Bun.TCPSocketListener<Served>;
let otherCert = "";

beforeAll(() => {
  if (!HAVE_OPENSSL) return;
  const dir = scratchDir("svc-http1-");
  const r = Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"), "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], { stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`openssl failed: ${r.stderr.toString()}`);
  cert = require("node:fs").readFileSync(join(dir, "cert.pem"), "utf8");
  key = require("node:fs").readFileSync(join(dir, "key.pem"), "utf8");
  const o = Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", join(dir, "okey.pem"), "-out", join(dir, "ocert.pem"), "-days", "2", "-subj", "/CN=other.test", "-addext", "subjectAltName=DNS:other.test"], { stderr: "pipe" });
  if (o.exitCode !== 0) throw new Error(`openssl failed: ${o.stderr.toString()}`);
  otherCert = require("node:fs").readFileSync(join(dir, "ocert.pem"), "utf8");
  otherName = Bun.listen<Served>({ hostname: "127.0.0.1", port: 0, tls: { cert: otherCert, key: require("node:fs").readFileSync(join(dir, "okey.pem"), "utf8") }, socket: handlers() as never });
  plain = Bun.listen<Served>({ hostname: "127.0.0.1", port: 0, socket: handlers() as never });
  secure = Bun.listen<Served>({ hostname: "127.0.0.1", port: 0, tls: { cert, key }, socket: handlers() as never });
});

afterAll(() => {
  closeIdleConnections();
  plain?.stop(true);
  secure?.stop(true);
  otherName?.stop(true);
});

const origin = (tls: boolean) => (tls ? `https://localhost:${secure.port}` : `http://127.0.0.1:${plain.port}`);
const HEADERS = { "User-Agent": "CoreApp/2.0.4 Android/35", Accept: "application/json", "Content-Type": "application/json", authorization: "Bearer t" };

async function viaSocket(url: string, tls: boolean, body = '{"prompt":"hi"}') {
  return socketFetch(url, { method: "POST", headers: HEADERS, body, connectTimeoutMs: 5000, tls: tls ? { ca: cert } : undefined });
}
async function viaFetch(url: string, tls: boolean, body = '{"prompt":"hi"}') {
  return fetch(url, { method: "POST", headers: HEADERS, body, tls: tls ? { ca: cert } : undefined } as RequestInit);
}

describe.skipIf(!HAVE_OPENSSL)("differential against fetch on the captures", () => {
  for (const tls of [false, true])
    for (const framing of ["length", "chunked", "close"] as Framing[])
      test(`${tls ? "TLS" : "plain"}, ${framing}: the same status, headers and bytes for every capture`, async () => {
        for (const c of captures) {
          script = { framing, body: enc.encode(c.body), headers: ["X-Capture: " + c.id] };
          const a = await viaSocket(`${origin(tls)}/api/v0/chat/completion?x=1`, tls);
          const aBytes = new Uint8Array(await a.arrayBuffer());
          const b = await viaFetch(`${origin(tls)}/api/v0/chat/completion?x=1`, tls);
          const bBytes = new Uint8Array(await b.arrayBuffer());
          expect(a.status).toBe(b.status);
          expect(a.headers.get("x-capture")).toBe(c.id);
          expect(a.headers.get("content-type")).toBe(b.headers.get("content-type"));
          expect(Buffer.from(aBytes).equals(Buffer.from(bBytes))).toBe(true);
          expect(new TextDecoder().decode(aBytes)).toBe(c.body);
        }
      });

  test("the request core receives is fetch's: the same request line, header fields and body", async () => {
    script = { framing: "length", body: enc.encode("{}") };
    requests.length = 0;
    await (await viaSocket(`${origin(false)}/a?b=c`, false, '{"prompt":"héllo"}')).text();
    await (await viaFetch(`${origin(false)}/a?b=c`, false, '{"prompt":"héllo"}')).text();
    const norm = (r: string) => {
      const [head, body] = r.split("\r\n\r\n");
      const [line, ...fields] = head!.split("\r\n");
      return { line, fields: fields.map((f) => f.toLowerCase()).sort(), body };
    };
    expect(requests.length).toBe(2);
    expect(norm(requests[0]!)).toEqual(norm(requests[1]!));
  });

  test("a path with a space or non-ASCII characters goes out encoded as fetch encodes it", async () => {
    script = { framing: "length", body: enc.encode("{}") };
    requests.length = 0;
    await (await viaSocket(`${origin(false)}/a b/é?q=é x`, false)).text();
    await (await viaFetch(`${origin(false)}/a b/é?q=é x`, false)).text();
    const line = (r: string) => r.slice(0, r.indexOf("\r\n"));
    expect(line(requests[0]!)).toBe(line(requests[1]!));
    expect(line(requests[0]!)).toStartWith("POST /a%20b/%C3%A9?q=");
  });

  test("a gzip-encoded chunked body is decoded as fetch decodes it", async () => {
    const body = enc.encode(captures.map((c) => c.body).join(""));
    script = { framing: "chunked", body: gzipSync(body), headers: ["Content-Encoding: gzip"] };
    const a = new Uint8Array(await (await viaSocket(`${origin(false)}/gz`, false)).arrayBuffer());
    const b = new Uint8Array(await (await viaFetch(`${origin(false)}/gz`, false)).arrayBuffer());
    expect(Buffer.from(a).equals(Buffer.from(body))).toBe(true);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  test("a 4xx answer with a JSON body reads the same", async () => {
    script = { status: 429, framing: "length", body: enc.encode('{"code":429,"msg":"slow down"}') };
    const a = await viaSocket(`${origin(true)}/x`, true);
    const b = await viaFetch(`${origin(true)}/x`, true);
    expect(a.status).toBe(429);
    expect(await a.text()).toBe(await b.text());
  });
});

describe.skipIf(!HAVE_OPENSSL)("connections", () => {
  test("an answer read to its end leaves the connection for the next request; a closed one is replaced", async () => {
    closeIdleConnections();
    script = { framing: "chunked", body: enc.encode("data: 1\n\n") };
    const before = connections;
    for (let i = 0; i < 3; i++) expect(await (await viaSocket(`${origin(false)}/k`, false)).text()).toBe("data: 1\n\n");
    expect(connections - before).toBe(1);
    expect(idleConnectionCount()).toBe(1);
    // The server closes the kept-alive connection with its answer: the next request opens a new one.
    script = { framing: "length", body: enc.encode("x"), closeAfter: true };
    expect(await (await viaSocket(`${origin(false)}/k`, false)).text()).toBe("x");
    await Bun.sleep(20);
    script = { framing: "length", body: enc.encode("y") };
    expect(await (await viaSocket(`${origin(false)}/k`, false)).text()).toBe("y");
    expect(connections - before).toBe(2);
  });

  test("a kept-alive connection the server closes as the next request arrives: the request goes out again on a new one", async () => {
    closeIdleConnections();
    script = { framing: "length", body: enc.encode("first") };
    expect(await (await viaSocket(`${origin(false)}/s`, false)).text()).toBe("first");
    const before = connections;
    script = { framing: "length", body: enc.encode("second"), dropReused: true };
    expect(await (await viaSocket(`${origin(false)}/s`, false)).text()).toBe("second");
    expect(connections - before).toBe(1);
  });

  test("aborting the signal while the body is silent errors the reader with the reason and closes the socket", async () => {
    closeIdleConnections();
    script = { framing: "chunked", body: enc.encode("data: 1\n\n" + "data: 2\n\n".repeat(100)), stallAfter: 80 };
    const ctl = new AbortController();
    const res = await socketFetch(`${origin(true)}/stall`, { method: "POST", headers: HEADERS, body: "{}", connectTimeoutMs: 5000, tls: { ca: cert }, signal: ctl.signal });
    const reader = res.body!.getReader();
    const got: string[] = [];
    const pending = (async () => {
      for (;;) {
        const r = await reader.read();
        if (r.done) return "done";
        got.push(new TextDecoder().decode(r.value));
      }
    })();
    await Bun.sleep(50);
    const id = connections;
    ctl.abort(new Error("client went away"));
    await expect(pending).rejects.toThrow("client went away");
    await Bun.sleep(50);
    expect(closedSockets).toContain(id);
    expect(got.join("")).toStartWith("data: 1");
  });

  test("what arrived while no read waited is handed over as one chunk, as fetch's body does", async () => {
    closeIdleConnections();
    const body = captures.map((c) => c.body).join("");
    script = { framing: "chunked", body: enc.encode(body) };
    const before = answersWritten;
    const res = await viaSocket(`${origin(false)}/burst`, false);
    // The server writes the answer in many pieces a turn of the event loop apart; nobody reads meanwhile. The
    // servers run on this event loop: once the last piece is written, a few turns deliver it to the client.
    while (answersWritten === before) await Bun.sleep(5);
    for (let i = 0; i < 5; i++) await Bun.sleep(5);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe(body);
    expect((await reader.read()).done).toBe(true);
  });

  test("cancelling the body closes the connection", async () => {
    closeIdleConnections();
    script = { framing: "close", body: enc.encode("data: 1\n\n"), stallAfter: 5 };
    const res = await viaSocket(`${origin(false)}/cancel`, false);
    const id = connections;
    const reader = res.body!.getReader();
    await reader.read();
    await reader.cancel();
    await Bun.sleep(50);
    expect(closedSockets).toContain(id);
  });

  test("a body cut short of its Content-Length errors the reader, as fetch does", async () => {
    closeIdleConnections();
    script = { framing: "length", body: enc.encode("0123456789"), stallAfter: 4, closeAfter: true };
    const res = await viaSocket(`${origin(false)}/short`, false);
    const reader = res.body!.getReader();
    const read = (async () => {
      for (;;) if ((await reader.read()).done) return "done";
    })();
    // The server holds the connection after 4 bytes; closing it from the server cuts the body short.
    await Bun.sleep(30);
    plainCloseLast();
    await expect(read).rejects.toThrow();
  });

  test("an untrusted certificate fails the call with a TLS error code; nothing is sent", async () => {
    requests.length = 0;
    const e = await socketFetch(`${origin(true)}/x`, { method: "POST", headers: HEADERS, body: "{}", connectTimeoutMs: 5000 }).catch((x) => x);
    expect(e).toBeInstanceOf(Error);
    expect(String(e.code)).toMatch(/CERT|SIGNED|TLS/);
    expect(requests.length).toBe(0);
  });

  test("a trusted certificate for another host name fails the call, as fetch fails it; nothing is sent", async () => {
    requests.length = 0;
    const url = `https://localhost:${otherName.port}/x`;
    const e = await socketFetch(url, { method: "POST", headers: HEADERS, body: "{}", connectTimeoutMs: 5000, tls: { ca: otherCert } }).catch((x) => x);
    const f = await fetch(url, { method: "POST", body: "{}", tls: { ca: otherCert } } as RequestInit).catch((x) => x);
    expect(e.code).toBe("ERR_TLS_CERT_ALTNAME_INVALID");
    expect(f.code).toBe(e.code);
    expect(requests.length).toBe(0);
  });

  test("a refused connection carries ECONNREFUSED", async () => {
    const port = await freePort();
    const e = await socketFetch(`http://127.0.0.1:${port}/`, { method: "GET", headers: {}, connectTimeoutMs: 5000 }).catch((x) => x);
    expect(e.code).toBe("ECONNREFUSED");
  });

  test("a header value with a line break is refused before anything is sent", async () => {
    await expect(socketFetch(`${origin(false)}/`, { method: "GET", headers: { "x-a": "b\r\nx-evil: 1" }, connectTimeoutMs: 5000 })).rejects.toThrow(TypeError);
  });
});

/** Ends the servers' newest connection from the server side. */
function plainCloseLast() {
  sockets.get(connections)?.end();
}

describe.skipIf(!HAVE_OPENSSL)("core/http.ts's streaming calls", () => {
  const wire = (streamClient: string) => ({ ...WIRE_DEFAULTS, stream_client: streamClient });

  test("upstream.stream_client picks the client: the socket client pools its connection, fetch leaves that pool alone", async () => {
    closeIdleConnections();
    script = { framing: "chunked", body: enc.encode("data: 1\n\n") };
    const viaFetch = await coreFetch(wire("fetch"), origin(false), { method: "POST", path: "/api/v0/chat/completion", json: {}, timeoutMs: 0 });
    expect(await viaFetch.text()).toBe("data: 1\n\n");
    expect(idleConnectionCount()).toBe(0);
    const viaSocket = await coreFetch(wire("socket"), origin(false), { method: "POST", path: "/api/v0/chat/completion", json: {}, timeoutMs: 0 });
    expect(await viaSocket.text()).toBe("data: 1\n\n");
    expect(idleConnectionCount()).toBe(1);
  });

  test("a dead SOCKS5 proxy on a streaming call is the proxy's failure, named without its credentials", async () => {
    const port = await freePort();
    const e = await coreFetch(wire("socket"), origin(false), { method: "POST", path: "/api/v0/chat/completion", json: {}, timeoutMs: 0, proxy: { type: "socks5", host: "127.0.0.1", port, username: "u-secret", password: "p-secret" } }).catch((x) => x);
    expect(e.message).toBe(`/api/v0/chat/completion: socks5 proxy 127.0.0.1:${port} unreachable (ECONNREFUSED)`);
    expect(e.origin).toBe("proxy");
    expect(e.message).not.toContain("secret");
  });
});

const missing = ["tinyproxy", "microsocks"].filter((b) => Bun.which(b) === null);
const HAVE = requireTool(import.meta.path, "tinyproxy and microsocks", missing.length === 0, `${missing.join(", ")} not installed (apt-get install -y tinyproxy microsocks)`);

describe.skipIf(!HAVE || !HAVE_OPENSSL)("a TLS origin through real proxies", () => {
  const procs: ReturnType<typeof Bun.spawn>[] = [];
  const ports: Record<string, number> = {};
  beforeAll(async () => {
    const dir = scratchDir("svc-http1-proxy-");
    ports.http = await freePort();
    writeFileSync(join(dir, "tp.conf"), `Port ${ports.http}\nListen 127.0.0.1\nTimeout 30\nAllow 127.0.0.1\nMaxClients 20\nBasicAuth proxyuser proxypass\n`);
    procs.push(Bun.spawn(["tinyproxy", "-d", "-c", join(dir, "tp.conf")], { stdout: "ignore", stderr: "ignore" }));
    ports.socks = await freePort();
    procs.push(Bun.spawn(["microsocks", "-i", "127.0.0.1", "-p", String(ports.socks), "-u", "proxyuser", "-P", "proxypass"], { stdout: "ignore", stderr: "ignore" }));
    for (const p of Object.values(ports))
      for (let i = 0; i < 100; i++) {
        const ok = await Bun.connect({ hostname: "127.0.0.1", port: p, socket: { data() {} } }).then((s) => (s.end(), true)).catch(() => false);
        if (ok) break;
        await Bun.sleep(30);
      }
  });
  afterAll(() => {
    for (const p of procs) p.kill();
  });

  test.each([
    ["an HTTP proxy's CONNECT tunnel", "http"],
    ["a SOCKS5 proxy", "socks5"],
    ["a SOCKS5 proxy resolving the name (socks5h)", "socks5h"],
  ] as const)("a capture through %s reads as fetch reads it directly", async (_n, type) => {
    const c = captures.at(-1)!;
    script = { framing: "chunked", body: enc.encode(c.body) };
    const proxy = { type, host: "127.0.0.1", port: type === "http" ? ports.http! : ports.socks!, username: "proxyuser", password: "proxypass" };
    const res = await socketFetch(`${origin(true)}/p`, { method: "POST", headers: HEADERS, body: "{}", connectTimeoutMs: 5000, tls: { ca: cert }, proxy });
    expect(await res.text()).toBe(c.body);
  });

  test.each(["http", "socks5"] as const)("through a %s proxy's tunnel, a certificate for another host name fails the call", async (type) => {
    requests.length = 0;
    const proxy = { type, host: "127.0.0.1", port: type === "http" ? ports.http! : ports.socks!, username: "proxyuser", password: "proxypass" };
    const e = await socketFetch(`https://localhost:${otherName.port}/p`, { method: "POST", headers: HEADERS, body: "{}", connectTimeoutMs: 5000, tls: { ca: otherCert }, proxy }).catch((x) => x);
    expect(e).toBeInstanceOf(Error);
    expect(e.code).toBe("ERR_TLS_CERT_ALTNAME_INVALID");
    expect(requests.length).toBe(0);
  });

  test.each(["http", "socks5"] as const)("wrong %s proxy credentials are a ProxyFailure without the password", async (type) => {
    const proxy = { type, host: "127.0.0.1", port: type === "http" ? ports.http! : ports.socks!, username: "proxyuser", password: "wrong-secret" };
    const e = await socketFetch(`${origin(true)}/p`, { method: "POST", headers: HEADERS, body: "{}", connectTimeoutMs: 5000, tls: { ca: cert }, proxy }).catch((x) => x);
    expect(e).toBeInstanceOf(ProxyFailure);
    expect(e.message).toContain(`${type} proxy 127.0.0.1:`);
    expect(e.message).not.toContain("wrong-secret");
  });
});
