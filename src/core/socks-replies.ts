// What a SOCKS5 server's reply code means (RFC 1928 §6), for the errors that name a proxy's refusal: shared by the
// socket client's own SOCKS handshake (http1/connect.ts) and the loopback bridge fetch goes through (socks-bridge.ts).
export const SOCKS_REPLIES: Record<number, string> = {
  1: "general SOCKS server failure",
  2: "connection not allowed by ruleset",
  3: "network unreachable",
  4: "host unreachable",
  5: "connection refused by the destination",
  6: "TTL expired",
  7: "command not supported",
  8: "address type not supported",
};
