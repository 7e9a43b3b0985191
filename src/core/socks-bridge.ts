// SOCKS5 for core calls (core-upstream §2, D11.7). Bun's fetch speaks only HTTP proxies, so each SOCKS5 proxy
// gets a small loopback HTTP proxy in front of it: CONNECT tunnels (https origins) and absolute-form requests
// (http origins) are carried over a SOCKS5 connection made with node:net. `socks5` resolves the host name
// locally; `socks5h` lets the proxy resolve it.
import net from "node:net";
import { lookup } from "node:dns/promises";
import type { ProxySpec } from "./http";

const bridges = new Map<string, Promise<string>>();

/** The loopback HTTP proxy URL that forwards through this SOCKS5 proxy (started once per proxy). */
export function socksBridgeUrl(p: ProxySpec): Promise<string> {
  const key = `${p.type}://${p.username ?? ""}:${p.password ?? ""}@${p.host}:${p.port}`;
  let b = bridges.get(key);
  if (!b) {
    b = startBridge(p);
    bridges.set(key, b);
  }
  return b;
}

function readExactly(sock: net.Socket, n: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const onData = (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      if (buf.length >= n) {
        sock.off("data", onData);
        sock.off("error", reject);
        // Nothing may flow to a listener-less socket: bytes would be lost before the next reader attaches.
        sock.pause();
        if (buf.length > n) sock.unshift(buf.subarray(n));
        resolve(buf.subarray(0, n));
      }
    };
    sock.on("data", onData);
    sock.once("error", reject);
    sock.resume();
  });
}

/** Opens a TCP connection to host:port through the SOCKS5 proxy (RFC 1928, RFC 1929 for user/password). */
export async function socksConnect(p: ProxySpec, host: string, port: number): Promise<net.Socket> {
  const sock = net.connect(p.port, p.host);
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
  let addr: Buffer;
  if (p.type === "socks5h" && !net.isIP(host)) {
    const h = Buffer.from(host);
    addr = Buffer.concat([Buffer.from([0x03, h.length]), h]);
  } else {
    const ip = net.isIP(host) ? host : (await lookup(host, { family: 4 })).address;
    addr = Buffer.from([0x01, ...ip.split(".").map(Number)]);
  }
  sock.write(Buffer.concat([Buffer.from([0x05, 0x01, 0x00]), addr, Buffer.from([port >> 8, port & 0xff])]));
  const head = await readExactly(sock, 4);
  if (head[1] !== 0x00) throw new Error(`SOCKS5 connect failed (reply ${head[1]})`);
  const rest = head[3] === 0x01 ? 6 : head[3] === 0x04 ? 18 : (await readExactly(sock, 1))[0]! + 2;
  await readExactly(sock, rest);
  return sock;
}

function startBridge(p: ProxySpec): Promise<string> {
  const server = net.createServer((client) => {
    client.once("data", async (first: Buffer) => {
      // Hold what follows (a request body) while the SOCKS connection is set up; pipe() resumes the flow.
      client.pause();
      const text = first.toString("latin1");
      const lineEnd = text.indexOf("\r\n");
      const [method, target] = text.slice(0, lineEnd).split(" ");
      try {
        if (method === "CONNECT") {
          const [host, port] = target!.split(":");
          const up = await socksConnect(p, host!, Number(port));
          client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
          const headEnd = text.indexOf("\r\n\r\n");
          if (headEnd >= 0 && headEnd + 4 < first.length) up.write(first.subarray(headEnd + 4));
          up.pipe(client);
          client.pipe(up);
          up.on("error", () => client.destroy());
          client.on("error", () => up.destroy());
          return;
        }
        // Absolute-form request for an http origin: rewrite the request line to origin-form.
        const url = new URL(target!);
        const up = await socksConnect(p, url.hostname, Number(url.port || 80));
        up.write(Buffer.concat([Buffer.from(`${method} ${url.pathname}${url.search} ${text.slice(0, lineEnd).split(" ")[2]}`, "latin1"), first.subarray(lineEnd)]));
        up.pipe(client);
        client.pipe(up);
        up.on("error", () => client.destroy());
        client.on("error", () => up.destroy());
      } catch (e) {
        client.end(`HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      }
    });
  });
  server.unref();
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`));
  });
}
