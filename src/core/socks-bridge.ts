// SOCKS5 for core calls (core-upstream §2, D11.7). Bun's fetch speaks only HTTP proxies, so each SOCKS5 proxy
// gets a small loopback HTTP proxy in front of it: CONNECT tunnels (https origins) and absolute-form requests
// (http origins) are carried over a SOCKS5 connection (RFC 1928, RFC 1929) made with node:net. `socks5`
// resolves the host name locally (§2); `socks5h` lets the proxy resolve it.
import net from "node:net";
import { lookup } from "node:dns/promises";
import type { ProxySpec } from "./proxy-spec";
import { noteBridgeFailure, PROXY_ERROR_HEADER, proxyLabel as label, socksReply } from "./proxy-failures";

const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;
const bridges = new Map<string, Promise<string>>();

/** A SOCKS failure in words that name the proxy and, for socket errors, the errno; never a credential. */
export function describeSocksFailure(p: ProxySpec, e: unknown): string {
  const err = e as { code?: unknown; message?: unknown };
  if (typeof err?.code === "string" && err.code) return `${label(p)} unreachable (${err.code})`;
  return `${label(p)}: ${String(err?.message ?? e)}`;
}

/** The loopback HTTP proxy URL that forwards through this SOCKS5 proxy (one bridge per proxy, kept). */
export function socksBridgeUrl(p: ProxySpec, connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS): Promise<string> {
  const key = `${p.type}|${p.username ?? ""}|${p.password ?? ""}|${p.host}|${p.port}|${connectTimeoutMs}`;
  let b = bridges.get(key);
  if (!b) {
    b = startBridge(p, connectTimeoutMs);
    // A bridge that failed to start is not cached: the next call tries again.
    b.catch(() => bridges.delete(key));
    bridges.set(key, b);
  }
  return b;
}

/** Reads exactly n bytes; bytes beyond n go back to the socket for the next reader. */
function readExactly(sock: net.Socket, n: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const cleanup = () => {
      sock.off("data", onData);
      sock.off("error", onError);
      sock.off("close", onClose);
    };
    const onError = (e: Error) => {
      cleanup();
      reject(e);
    };
    const onClose = () => {
      cleanup();
      reject(new Error("SOCKS5 proxy closed the connection"));
    };
    const onData = (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      if (buf.length < n) return;
      cleanup();
      // Nothing may flow to a listener-less socket: bytes would be lost before the next reader attaches.
      sock.pause();
      if (buf.length > n) sock.unshift(buf.subarray(n));
      resolve(buf.subarray(0, n));
    };
    sock.on("data", onData);
    sock.once("error", onError);
    sock.once("close", onClose);
    sock.resume();
  });
}

async function addressBytes(p: ProxySpec, host: string): Promise<Buffer> {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (p.type === "socks5h" && !net.isIP(bare)) {
    const h = Buffer.from(bare);
    if (h.length > 255) throw new Error("host name too long for SOCKS5");
    return Buffer.concat([Buffer.from([0x03, h.length]), h]);
  }
  const ip = net.isIP(bare) ? bare : (await lookup(bare)).address;
  if (net.isIPv4(ip)) return Buffer.from([0x01, ...ip.split(".").map(Number)]);
  return Buffer.concat([Buffer.from([0x04]), ipv6Bytes(ip)]);
}

function ipv6Bytes(ip: string): Buffer {
  const [head, tail] = ip.split("::") as [string, string | undefined];
  const parts = (s: string | undefined) => (s ? s.split(":") : []);
  const h = parts(head);
  const t = parts(tail);
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill("0"), ...t];
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16) || 0, i * 2));
  return out;
}

/** Opens a TCP connection to host:port through the SOCKS5 proxy, within connectTimeoutMs. */
export async function socksConnect(p: ProxySpec, host: string, port: number, connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS): Promise<net.Socket> {
  const sock = net.connect(p.port, p.host);
  const timer = setTimeout(() => sock.destroy(new Error(`SOCKS5 connect timed out after ${connectTimeoutMs} ms`)), connectTimeoutMs);
  try {
    await new Promise<void>((resolve, reject) => {
      sock.once("connect", resolve);
      sock.once("error", reject);
    });
    const auth = p.username ? 0x02 : 0x00;
    sock.write(Buffer.from([0x05, 1, auth]));
    const choice = await readExactly(sock, 2);
    if (choice[0] !== 0x05 || choice[1] !== auth) throw new Error("SOCKS5 proxy refused the authentication method");
    if (auth === 0x02) {
      const u = Buffer.from(p.username ?? "");
      const pw = Buffer.from(p.password ?? "");
      sock.write(Buffer.concat([Buffer.from([0x01, u.length]), u, Buffer.from([pw.length]), pw]));
      const res = await readExactly(sock, 2);
      if (res[1] !== 0x00) throw new Error("SOCKS5 proxy rejected the credentials");
    }
    const addr = await addressBytes(p, host);
    sock.write(Buffer.concat([Buffer.from([0x05, 0x01, 0x00]), addr, Buffer.from([port >> 8, port & 0xff])]));
    const head = await readExactly(sock, 4);
    if (head[1] !== 0x00) throw new Error(`SOCKS5 connect to ${host}:${port} failed (reply ${head[1]}: ${socksReply(head[1]!)})`);
    // Skip the bound address: IPv4 4+2, IPv6 16+2, domain length byte + name + 2.
    const rest = head[3] === 0x01 ? 6 : head[3] === 0x04 ? 18 : (await readExactly(sock, 1))[0]! + 2;
    await readExactly(sock, rest);
    return sock;
  } catch (e) {
    sock.destroy();
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

function splice(a: net.Socket, b: net.Socket): void {
  a.pipe(b);
  b.pipe(a);
  a.on("error", () => b.destroy());
  b.on("error", () => a.destroy());
  a.on("close", () => b.destroy());
  b.on("close", () => a.destroy());
}

function startBridge(p: ProxySpec, connectTimeoutMs: number): Promise<string> {
  const server = net.createServer((client) => {
    client.on("error", () => client.destroy());
    client.once("data", async (first: Buffer) => {
      // Hold what follows (a request body) while the SOCKS connection is set up; pipe() resumes the flow.
      client.pause();
      const text = first.toString("latin1");
      const lineEnd = text.indexOf("\r\n");
      const [method, target, version] = text.slice(0, lineEnd < 0 ? undefined : lineEnd).split(" ");
      try {
        if (method === "CONNECT") {
          const colon = target!.lastIndexOf(":");
          const up = await socksConnect(p, target!.slice(0, colon), Number(target!.slice(colon + 1)), connectTimeoutMs);
          client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
          const headEnd = text.indexOf("\r\n\r\n");
          if (headEnd >= 0 && headEnd + 4 < first.length) up.write(first.subarray(headEnd + 4));
          splice(up, client);
          return;
        }
        // Absolute-form request for an http origin: rewrite the request line to origin-form.
        const url = new URL(target!);
        const up = await socksConnect(p, url.hostname, Number(url.port || 80), connectTimeoutMs);
        up.write(Buffer.concat([Buffer.from(`${method} ${url.pathname}${url.search} ${version}`, "latin1"), first.subarray(lineEnd)]));
        splice(up, client);
      } catch (e) {
        // Only the proxy's address and the failure travel: never its credentials.
        const reason = describeSocksFailure(p, e).replace(/[\r\n]/g, " ");
        noteBridgeFailure(p, reason);
        client.end(`HTTP/1.1 502 Bad Gateway\r\n${PROXY_ERROR_HEADER}: ${reason}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      }
    });
  });
  server.unref();
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`));
  });
}
