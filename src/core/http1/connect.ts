// Opening a connection of the socket-level client to an origin: directly, through an HTTP proxy (a CONNECT tunnel
// for https origins; plain-http origins are asked in absolute form, client.ts) or through a SOCKS5 proxy (RFC
// 1928, RFC 1929; `socks5` resolves the name here, `socks5h` lets the proxy resolve it), then TLS for https.
// A failure of the proxy is a ProxyFailure naming the proxy, never its credentials.
import type { ProxySpec } from "../proxy-spec";
import { proxyLabel, socksReply } from "../proxy-failures";
import { isIP } from "../../util/ip";
import { Conn, HANDLERS, netError } from "./conn";

export interface Origin {
  host: string;
  port: number;
  tls: boolean;
}

export interface TlsExtra {
  /** Extra trusted certificates (tests with a self-signed server); the system's roots otherwise. */
  ca?: string | string[];
}

/** The proxy failed (refused, unreachable, rejected the credentials): the message names it, without secrets. */
export class ProxyFailure extends Error {}

/** Connects `conn` to the origin, within `timeoutMs` for TCP, the proxy's handshake and TLS together. */
export async function establish(conn: Conn, origin: Origin, proxy: ProxySpec | undefined, timeoutMs: number, tls: TlsExtra | undefined): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const e = netError("ETIMEDOUT", `connection not established within ${timeoutMs} ms`);
      reject(proxy ? new ProxyFailure(`${proxyLabel(proxy)} unreachable (ETIMEDOUT)`) : e);
      conn.destroy(e);
    }, timeoutMs);
  });
  deadline.catch(() => {});
  try {
    await Promise.race([connectSteps(conn, origin, proxy, tls), deadline]);
  } catch (e) {
    conn.destroy(e);
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

async function connectSteps(conn: Conn, origin: Origin, proxy: ProxySpec | undefined, tls: TlsExtra | undefined): Promise<void> {
  const tlsOptions = origin.tls ? { serverName: isIP(bare(origin.host)) ? undefined : bare(origin.host), ...(tls?.ca ? { ca: tls.ca } : {}) } : undefined;
  if (!proxy) {
    const s = await Bun.connect<Conn>({ hostname: bare(origin.host), port: origin.port, data: conn, socket: HANDLERS, ...(tlsOptions ? { tls: tlsOptions } : {}) });
    adopt(conn, s);
    if (origin.tls) await conn.handshake();
    return;
  }
  let s;
  try {
    s = await Bun.connect<Conn>({ hostname: bare(proxy.host), port: proxy.port, data: conn, socket: HANDLERS });
  } catch (e) {
    throw new ProxyFailure(`${proxyLabel(proxy)} unreachable (${(e as { code?: string }).code || (e as Error).message})`);
  }
  adopt(conn, s);
  try {
    if (proxy.type === "http") {
      // A plain-http origin through an HTTP proxy needs no tunnel: the request goes to the proxy in absolute form.
      if (!origin.tls) return;
      await httpTunnel(conn, origin, proxy);
    } else await socksTunnel(conn, origin, proxy);
  } catch (e) {
    if (e instanceof ProxyFailure) throw e;
    const code = (e as { code?: string }).code;
    throw new ProxyFailure(code ? `${proxyLabel(proxy)} unreachable (${code})` : `${proxyLabel(proxy)}: ${(e as Error).message}`);
  }
  if (origin.tls) {
    const [, upgraded] = s.upgradeTLS<Conn>({ data: conn, tls: tlsOptions!, socket: HANDLERS });
    conn.socket = upgraded;
    await conn.handshake();
  }
}

/** The connection's socket; one that connected after the deadline or an abort had ended the connection is closed. */
function adopt(conn: Conn, s: Bun.Socket<Conn>): void {
  if (conn.phase === "closed") {
    s.terminate();
    throw conn.failureReason;
  }
  conn.socket ??= s;
  s.setNoDelay(true);
}

/** `[::1]` → `::1`: sockets take the bare address. */
function bare(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

function hostPort(o: Origin): string {
  const h = bare(o.host);
  return `${h.includes(":") ? `[${h}]` : h}:${o.port}`;
}

/** The proxy's Proxy-Authorization value (basic), or null without credentials. */
export function proxyAuthorization(p: ProxySpec): string | null {
  if (!p.username) return null;
  return `Basic ${Buffer.from(`${p.username}:${p.password ?? ""}`).toString("base64")}`;
}

async function httpTunnel(conn: Conn, origin: Origin, proxy: ProxySpec): Promise<void> {
  const auth = proxyAuthorization(proxy);
  const target = hostPort(origin);
  conn.send(Buffer.from(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth ? `Proxy-Authorization: ${auth}\r\n` : ""}\r\n`, "latin1"));
  for (;;) {
    const buf = conn.setupBytes;
    const end = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).indexOf("\r\n\r\n");
    if (end >= 0) {
      const line = Buffer.from(buf.buffer, buf.byteOffset, end).toString("latin1").split("\r\n")[0] ?? "";
      conn.consume(end + 4);
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(line)?.[1] ?? 0);
      if (status === 200) return;
      if (status === 407) throw new ProxyFailure(`${proxyLabel(proxy)} rejected the credentials (HTTP 407)`);
      throw new ProxyFailure(`${proxyLabel(proxy)} refused the tunnel to ${target} (${status ? `HTTP ${status}` : "not an HTTP answer"})`);
    }
    if (buf.length > 16 * 1024) throw new ProxyFailure(`${proxyLabel(proxy)}: answer to CONNECT too large`);
    await conn.more();
  }
}

/** Waits until `n` set-up bytes are there and takes them. */
async function take(conn: Conn, n: number): Promise<Uint8Array> {
  while (conn.setupBytes.length < n) await conn.more();
  const b = conn.setupBytes.slice(0, n);
  conn.consume(n);
  return b;
}

async function socksTunnel(conn: Conn, origin: Origin, proxy: ProxySpec): Promise<void> {
  const method = proxy.username ? 0x02 : 0x00;
  conn.send(Uint8Array.of(0x05, 1, method));
  const choice = await take(conn, 2);
  if (choice[0] !== 0x05 || choice[1] !== method) throw new ProxyFailure(`${proxyLabel(proxy)}: SOCKS5 proxy refused the authentication method`);
  if (method === 0x02) {
    const u = Buffer.from(proxy.username ?? "");
    const pw = Buffer.from(proxy.password ?? "");
    if (u.length > 255 || pw.length > 255) throw new ProxyFailure(`${proxyLabel(proxy)}: SOCKS5 credentials too long`);
    conn.send(Buffer.concat([Uint8Array.of(0x01, u.length), u, Uint8Array.of(pw.length), pw]));
    const res = await take(conn, 2);
    if (res[1] !== 0x00) throw new ProxyFailure(`${proxyLabel(proxy)}: SOCKS5 proxy rejected the credentials`);
  }
  const addr = await addressBytes(proxy, bare(origin.host));
  conn.send(Buffer.concat([Uint8Array.of(0x05, 0x01, 0x00), addr, Uint8Array.of(origin.port >> 8, origin.port & 0xff)]));
  const head = await take(conn, 4);
  if (head[1] !== 0x00) throw new ProxyFailure(`${proxyLabel(proxy)}: SOCKS5 connect to ${hostPort(origin)} failed (reply ${head[1]}: ${socksReply(head[1]!)})`);
  // Skip the bound address: IPv4 4+2, IPv6 16+2, a name's length byte + name + 2.
  const rest = head[3] === 0x01 ? 6 : head[3] === 0x04 ? 18 : (await take(conn, 1))[0]! + 2;
  await take(conn, rest);
}

async function addressBytes(p: ProxySpec, host: string): Promise<Uint8Array> {
  if (p.type === "socks5h" && !isIP(host)) {
    const h = Buffer.from(host);
    if (h.length > 255) throw new ProxyFailure(`${proxyLabel(p)}: host name too long for SOCKS5`);
    return Buffer.concat([Uint8Array.of(0x03, h.length), h]);
  }
  const ip = isIP(host) ? host : (await Bun.dns.lookup(host))[0]!.address;
  if (isIP(ip) === 4) return Uint8Array.of(0x01, ...ip.split(".").map(Number));
  return Buffer.concat([Uint8Array.of(0x04), ipv6Bytes(ip)]);
}

export function ipv6Bytes(ip: string): Uint8Array {
  const [head, tail] = ip.split("%")[0]!.split("::") as [string, string | undefined];
  const parts = (s: string | undefined) => (s ? s.split(":") : []);
  const h = parts(head);
  const t = parts(tail);
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill("0"), ...t];
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    const v = parseInt(g, 16) || 0;
    out[i * 2] = v >> 8;
    out[i * 2 + 1] = v & 0xff;
  });
  return out;
}
