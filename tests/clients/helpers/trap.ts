// A loopback stand-in for "the internet": each CLI run gets HTTP_PROXY/HTTPS_PROXY/ALL_PROXY pointing here
// (NO_PROXY covers loopback, so the gateway is reached directly). Anything a client tries to reach
// beyond loopback — update checks, telemetry, metadata fetches — arrives here, is recorded and refused.
import type { Socket, TCPSocketListener } from "bun";

export interface Trap {
  url: string;
  /** First request line of every attempt, e.g. "CONNECT example.com:443 HTTP/1.1". */
  attempts: string[];
  stop(): void;
}

export function startTrap(): Trap {
  const attempts: string[] = [];
  const listener: TCPSocketListener<undefined> = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      data(s: Socket<undefined>, d) {
        const line = new TextDecoder().decode(d).split("\r\n")[0] ?? "";
        attempts.push(line);
        s.write("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        s.end();
      },
    },
  });
  return { url: `http://127.0.0.1:${listener.port}`, attempts, stop: () => listener.stop(true) };
}

export function proxyEnv(trap: Trap): Record<string, string> {
  const noProxy = "127.0.0.1,localhost,::1";
  return {
    HTTP_PROXY: trap.url,
    HTTPS_PROXY: trap.url,
    ALL_PROXY: trap.url,
    http_proxy: trap.url,
    https_proxy: trap.url,
    all_proxy: trap.url,
    NO_PROXY: noProxy,
    no_proxy: noProxy,
  };
}
