// IP addresses and CIDR ranges for `server.trusted_proxies` (issue 33). Matching is node:net's BlockList; this
// file only turns what operators and proxies write into the canonical forms it and the logs use.
import type { BlockList } from "node:net";
import { isIP } from "./ip";

const IPV4_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/;
const BRACKETED = /^\[([^\]]+)\](?::\d{1,5})?$/;
const MAPPED_V4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** One canonical spelling per IPv6 address (lower case, zeros compressed), so throttle keys cannot be varied. */
function canonicalV6(v6: string): string {
  try {
    return new URL(`http://[${v6}]/`).hostname.slice(1, -1);
  } catch {
    return v6.toLowerCase();
  }
}

/**
 * An address as a proxy or the socket reports it — `1.2.3.4`, `1.2.3.4:5678`, `2001:db8::1`, `[2001:db8::1]:443`,
 * quoted as in `Forwarded` — in canonical form; an IPv4-mapped IPv6 address becomes the IPv4 address. Null for
 * anything else (`unknown`, an obfuscated `_hidden` identifier, garbage).
 */
export function normalizeIp(raw: string): string | null {
  let s = raw.trim();
  if (s.length >= 2 && s.startsWith('"') && s.endsWith('"')) s = s.slice(1, -1).trim();
  const bracket = BRACKETED.exec(s);
  if (bracket) s = bracket[1]!;
  else {
    const v4port = IPV4_WITH_PORT.exec(s);
    if (v4port) s = v4port[1]!;
  }
  const family = isIP(s);
  if (family === 4) return s;
  if (family !== 6) return null;
  const mapped = MAPPED_V4.exec(s);
  if (mapped && isIP(mapped[1]!) === 4) return mapped[1]!;
  return canonicalV6(s);
}

export interface Cidr {
  address: string;
  prefix: number;
  family: "ipv4" | "ipv6";
}

/** `10.0.0.0/8`, `2001:db8::/32`, or a bare address (a /32 or /128). Returns a problem string when invalid. */
export function parseCidr(text: string): Cidr | string {
  const t = text.trim();
  const slash = t.indexOf("/");
  const addrPart = slash === -1 ? t : t.slice(0, slash);
  const family = isIP(addrPart);
  if (family === 0) return "must be an IP address or CIDR range (10.0.0.0/8, 2001:db8::/32)";
  const max = family === 4 ? 32 : 128;
  let prefix = max;
  if (slash !== -1) {
    const p = t.slice(slash + 1);
    if (!/^\d{1,3}$/.test(p) || Number(p) > max) return `must have a prefix length of 0-${max}`;
    prefix = Number(p);
  }
  return { address: addrPart, prefix, family: family === 4 ? "ipv4" : "ipv6" };
}

/** A set of CIDR ranges. IPv4-mapped IPv6 addresses match the IPv4 ranges. */
export class AddressSet {
  // Built on first use: node:net's BlockList costs ≈ 50 ms to load, a cold start pays it only when a request
  // meets a non-empty set (issue 35).
  private list: BlockList | null = null;
  private readonly ranges: readonly Cidr[];
  readonly size: number;

  constructor(ranges: readonly Cidr[]) {
    this.ranges = ranges;
    this.size = ranges.length;
  }

  /** `address` must be normalised (normalizeIp). */
  has(address: string): boolean {
    if (this.size === 0) return false;
    const family = isIP(address);
    if (family === 0) return false;
    if (!this.list) {
      // node:net itself is loaded here, not at start (src/util/ip.ts).
      const { BlockList } = require("node:net") as typeof import("node:net");
      this.list = new BlockList();
      for (const r of this.ranges) this.list.addSubnet(r.address, r.prefix, r.family);
    }
    return this.list.check(address, family === 4 ? "ipv4" : "ipv6");
  }
}

/** Parses a list of ranges; the first invalid entry is reported with its index. */
export function parseCidrList(entries: readonly string[]): { ok: true; set: AddressSet } | { ok: false; index: number; problem: string } {
  const ranges: Cidr[] = [];
  for (const [index, e] of entries.entries()) {
    const r = parseCidr(e);
    if (typeof r === "string") return { ok: false, index, problem: r };
    ranges.push(r);
  }
  return { ok: true, set: new AddressSet(ranges) };
}

/** SVC_TRUSTED_PROXIES: comma- (or space-) separated ranges; empty entries ignored. */
export function splitCidrEnv(value: string): string[] {
  return value
    .split(/[,\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}
