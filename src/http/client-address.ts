// The client's address (issue 33): the one function every throttle, the access log, the request and audit logs
// and usage take it from. By default it is the socket peer and every forwarding header is ignored, so a client
// cannot choose its own address. Only when the peer is a trusted proxy (`server.trusted_proxies`,
// SVC_TRUSTED_PROXIES) does the first of `Forwarded`, `X-Forwarded-For`, `X-Real-IP` that is present speak: its
// hops are walked from the right (the hop the trusted proxy itself appended) past every trusted address, and the
// first untrusted hop is the client. Everything to its left was written by the client and is never believed.
import { AddressSet, normalizeIp, parseCidrList, splitCidrEnv } from "../util/cidr";

const EMPTY = new AddressSet([]);

/** The `for=` value of each element of a `Forwarded` header (RFC 7239), null for an element without one. */
export function forwardedFor(header: string): (string | null)[] {
  const out: (string | null)[] = [];
  let element = "";
  let quoted = false;
  const flush = () => {
    const m = /(?:^|;)\s*for\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/i.exec(element);
    out.push(m ? m[1]!.trim() : null);
    element = "";
  };
  for (let i = 0; i < header.length; i++) {
    const c = header[i]!;
    if (c === '"' && header[i - 1] !== "\\") quoted = !quoted;
    if (c === "," && !quoted) flush();
    else element += c;
  }
  flush();
  return out;
}

/**
 * Walks a hop list from the right. A trusted hop passes the question on to the hop before it; the first
 * untrusted one is the client. A hop that is not an address (`unknown`, `_hidden`, garbage) ends the walk at
 * the last address known for sure: the trusted proxy that wrote it. When every hop is trusted, the left-most is.
 */
function walk(hops: (string | null)[], peer: string, trusted: AddressSet): string {
  let address = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const raw = hops[i];
    const hop = raw == null ? null : normalizeIp(raw);
    if (hop === null) return address;
    address = hop;
    if (!trusted.has(hop)) return hop;
  }
  return address;
}

/** The client address for a request whose socket peer is `peer` (as Bun reports it). */
export function resolveClientAddress(peer: string, headers: Headers, trusted: AddressSet): string {
  const socket = normalizeIp(peer) ?? peer;
  if (!trusted.has(socket)) return socket;
  const forwarded = headers.get("forwarded");
  if (forwarded !== null) {
    const hops = forwardedFor(forwarded);
    if (hops.some((h) => h !== null)) return walk(hops, socket, trusted);
  }
  const xff = headers.get("x-forwarded-for");
  if (xff !== null && xff.trim() !== "") return walk(xff.split(","), socket, trusted);
  const realIp = headers.get("x-real-ip");
  if (realIp !== null) return normalizeIp(realIp) ?? socket;
  return socket;
}

/**
 * The trusted-proxy ranges in force: `server.trusted_proxies` when the config sets it (config values win over the
 * environment, decisions.md 1.6), else SVC_TRUSTED_PROXIES. Both were validated at start and on every config
 * write; an entry that still does not parse trusts nothing rather than something unintended.
 */
export function trustedProxySet(envValue: string | undefined, configured: readonly string[] | null | undefined): AddressSet {
  const entries = configured != null ? configured : envValue !== undefined ? splitCidrEnv(envValue) : [];
  if (entries.length === 0) return EMPTY;
  const parsed = parseCidrList(entries);
  return parsed.ok ? parsed.set : EMPTY;
}
