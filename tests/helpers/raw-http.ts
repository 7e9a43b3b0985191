// Raw HTTP/1.1 over a loopback socket, for requests fetch cannot make: odd Host headers, slow or stalled
// bodies, a client that goes away mid-request.
import { connect, type Socket } from "node:net";

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Everything the server sent. */
  raw: string;
}

export function parseRaw(raw: string): RawAnswer {
  const end = raw.indexOf("\r\n\r\n");
  const head = end < 0 ? raw : raw.slice(0, end);
  const [statusLine, ...lines] = head.split("\r\n");
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(":");
    if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  let body = end < 0 ? "" : raw.slice(end + 4);
  if (headers["transfer-encoding"] === "chunked") body = unchunk(body);
  return { status: Number(statusLine?.split(" ")[1] ?? 0), headers, body, raw };
}

function unchunk(s: string): string {
  let out = "";
  for (let i = 0; ; ) {
    const nl = s.indexOf("\r\n", i);
    if (nl < 0) return out;
    const n = parseInt(s.slice(i, nl), 16);
    if (!n) return out;
    out += s.slice(nl + 2, nl + 2 + n);
    i = nl + 2 + n + 2;
  }
}

/** An open connection: write when you like, read what came back once the server closes (or on demand). */
export interface RawConnection {
  socket: Socket;
  write(data: string | Uint8Array): void;
  /** Resolves with everything received when the server closes the connection. */
  closed: Promise<string>;
  received(): string;
  destroy(): void;
}

export function openRaw(port: number, opts: { localAddress?: string } = {}): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    let got = "";
    const socket = connect({ port, host: "127.0.0.1", localAddress: opts.localAddress });
    const closed = new Promise<string>((res) => {
      socket.on("close", () => res(got));
    });
    socket.setEncoding("utf8");
    socket.on("data", (d: string) => (got += d));
    socket.once("error", reject);
    socket.once("connect", () => {
      socket.removeListener("error", reject);
      // Errors after the connect (a reset when the server hangs up on us) end `closed` like a close.
      socket.on("error", () => {});
      resolve({
        socket,
        write: (data) => void socket.write(data),
        closed,
        received: () => got,
        destroy: () => socket.destroy(),
      });
    });
  });
}

/** One whole request on its own connection (`Connection: close`), answered when the server closes it. */
export async function rawRequest(port: number, request: string): Promise<RawAnswer> {
  const c = await openRaw(port);
  c.write(request);
  return parseRaw(await c.closed);
}
