// Issue 33 item 1: the client address from the socket peer, or — only when the peer is a trusted proxy — from
// Forwarded / X-Forwarded-For / X-Real-IP, walking the hops from the right past every trusted one.
import { describe, expect, test } from "bun:test";
import { forwardedFor, resolveClientAddress, trustedProxySet } from "../../src/http/client-address";
import { normalizeIp, parseCidr, parseCidrList } from "../../src/util/cidr";
import { validateConfig } from "../../src/config/validate";
import { ConfigError, loadConfig } from "../../src/config/load";
import { scratchDir } from "../helpers/scratch";
import { join } from "node:path";

const trust = (...ranges: string[]) => trustedProxySet(undefined, ranges);
const h = (init: Record<string, string>) => new Headers(init);

describe("normalizeIp", () => {
  test("addresses in every spelling a socket or proxy uses come out canonical", () => {
    expect(normalizeIp("203.0.113.7")).toBe("203.0.113.7");
    expect(normalizeIp(" 203.0.113.7:51234 ")).toBe("203.0.113.7");
    expect(normalizeIp('"[2001:DB8:0:0::17]:4711"')).toBe("2001:db8::17");
    expect(normalizeIp("[2001:db8::17]")).toBe("2001:db8::17");
    expect(normalizeIp("2001:0db8::0017")).toBe("2001:db8::17");
    expect(normalizeIp("::ffff:192.0.2.1")).toBe("192.0.2.1");
  });

  test("what is not an address is null", () => {
    for (const s of ["unknown", "_hidden", "", "1.2.3", "999.1.1.1", "example.com", "[::1", "1.2.3.4:port"]) expect(normalizeIp(s)).toBeNull();
  });
});

describe("CIDR lists", () => {
  test("ranges and bare addresses of both families parse; a mapped IPv4 peer matches an IPv4 range", () => {
    const set = trust("10.0.0.0/8", "2001:db8::/32", "192.0.2.1");
    expect(set.has("10.9.8.7")).toBe(true);
    expect(set.has("11.0.0.1")).toBe(false);
    expect(set.has("2001:db8:ffff::1")).toBe(true);
    expect(set.has("2001:db9::1")).toBe(false);
    expect(set.has("192.0.2.1")).toBe(true);
    expect(set.has("192.0.2.2")).toBe(false);
    expect(set.has("::ffff:10.1.1.1")).toBe(true);
  });

  test("bad entries are refused with their position", () => {
    expect(typeof parseCidr("10.0.0.0/33")).toBe("string");
    expect(typeof parseCidr("2001:db8::/129")).toBe("string");
    expect(typeof parseCidr("nginx")).toBe("string");
    expect(typeof parseCidr("10.0.0.0/-1")).toBe("string");
    const r = parseCidrList(["127.0.0.1", "10.0.0.0/8", "not-an-address"]);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.index).toBe(2);
  });

  test("server.trusted_proxies is validated as part of the config", () => {
    expect(validateConfig({ server: { trusted_proxies: ["127.0.0.1", "::1/128"] } }).ok).toBe(true);
    const bad = validateConfig({ server: { trusted_proxies: ["127.0.0.1", "10.0.0.0/40"] } });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.field).toBe("server.trusted_proxies.1");
  });

  test("an invalid SVC_TRUSTED_PROXIES stops the start with a configuration error (exit 2)", async () => {
    const dir = scratchDir("svc-trusted-env-");
    const err = await loadConfig({ configPath: join(dir, "config.json"), env: { SVC_TRUSTED_PROXIES: "127.0.0.1, bogus" } }).catch((e) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect(String(err.message)).toContain("SVC_TRUSTED_PROXIES: entry 2");
    const ok = await loadConfig({ configPath: join(dir, "config.json"), env: { SVC_TRUSTED_PROXIES: "127.0.0.1,::1" } });
    expect(ok.config).toEqual({});
  });

  test("SVC_TRUSTED_PROXIES (comma-separated) applies unless the config sets server.trusted_proxies (decisions.md 1.6)", () => {
    const env = trustedProxySet("10.0.0.1, 2001:db8::/48", undefined);
    expect(env.has("10.0.0.1")).toBe(true);
    expect(env.has("2001:db8::5")).toBe(true);
    expect(env.has("192.0.2.1")).toBe(false);
    const config = trustedProxySet("10.0.0.1", ["192.0.2.1"]);
    expect(config.has("192.0.2.1")).toBe(true);
    expect(config.has("10.0.0.1")).toBe(false);
    // An explicit empty list in the config trusts nobody, whatever the environment says.
    expect(trustedProxySet("10.0.0.1", []).has("10.0.0.1")).toBe(false);
    expect(trustedProxySet("  ", null).size).toBe(0);
  });
});

describe("Forwarded parsing", () => {
  test("for= of every element, quoted and bracketed values, other parameters and case ignored", () => {
    expect(forwardedFor('for=192.0.2.60;proto=http;by=203.0.113.43, For="[2001:db8:cafe::17]:4711", proto=https')).toEqual([
      "192.0.2.60",
      '"[2001:db8:cafe::17]:4711"',
      null,
    ]);
    expect(forwardedFor('for="a,b";proto=x, for=1.2.3.4')).toEqual(['"a,b"', "1.2.3.4"]);
  });
});

describe("resolveClientAddress", () => {
  const proxy = trust("127.0.0.1", "10.0.0.0/8", "2001:db8:ffff::/48");

  test("without trusted proxies every forwarding header is ignored", () => {
    const headers = h({ "x-forwarded-for": "198.51.100.1", forwarded: "for=198.51.100.2", "x-real-ip": "198.51.100.3" });
    expect(resolveClientAddress("127.0.0.1", headers, trust())).toBe("127.0.0.1");
    expect(resolveClientAddress("::ffff:127.0.0.1", headers, trust())).toBe("127.0.0.1");
  });

  test("a peer outside the trusted list cannot speak for anyone, however it spells the header", () => {
    const headers = h({ "x-forwarded-for": "198.51.100.1, 127.0.0.1", forwarded: "for=10.0.0.5" });
    expect(resolveClientAddress("192.0.2.99", headers, proxy)).toBe("192.0.2.99");
  });

  test("X-Forwarded-For: the right-most untrusted hop, not what the client prepended", () => {
    // client 198.51.100.7 claims to be 1.1.1.1; nginx appends the real peer; a second trusted proxy appends the first.
    const headers = h({ "x-forwarded-for": "1.1.1.1, 198.51.100.7, 10.0.0.2" });
    expect(resolveClientAddress("127.0.0.1", headers, proxy)).toBe("198.51.100.7");
  });

  test("X-Forwarded-For sent as two header lines is one chain", () => {
    const headers = new Headers();
    headers.append("x-forwarded-for", "1.1.1.1");
    headers.append("x-forwarded-for", "198.51.100.8");
    expect(resolveClientAddress("127.0.0.1", headers, proxy)).toBe("198.51.100.8");
  });

  test("IPv6 hops and an IPv6 proxy chain", () => {
    const headers = h({ "x-forwarded-for": "2001:db8::dead, 2001:DB8:0::BEEF, 2001:db8:ffff::1" });
    expect(resolveClientAddress("2001:db8:ffff::2", headers, proxy)).toBe("2001:db8::beef");
  });

  test("Forwarded wins over X-Forwarded-For; quoted IPv6 with a port", () => {
    const headers = h({ forwarded: 'for=1.1.1.1, for="[2001:db8::42]:5555", for=10.1.2.3', "x-forwarded-for": "198.51.100.1" });
    expect(resolveClientAddress("127.0.0.1", headers, proxy)).toBe("2001:db8::42");
  });

  test("a Forwarded header without for= falls through to X-Forwarded-For", () => {
    const headers = h({ forwarded: "proto=https;host=gw.example", "x-forwarded-for": "198.51.100.4" });
    expect(resolveClientAddress("127.0.0.1", headers, proxy)).toBe("198.51.100.4");
  });

  test("an obfuscated or garbage hop ends the walk at the trusted proxy that wrote it", () => {
    expect(resolveClientAddress("127.0.0.1", h({ forwarded: "for=198.51.100.1, for=_hidden" }), proxy)).toBe("127.0.0.1");
    expect(resolveClientAddress("127.0.0.1", h({ "x-forwarded-for": "198.51.100.1, garbage, 10.0.0.9" }), proxy)).toBe("10.0.0.9");
  });

  test("every hop trusted: the left-most is the client", () => {
    expect(resolveClientAddress("127.0.0.1", h({ "x-forwarded-for": "10.0.0.1, 10.0.0.2" }), proxy)).toBe("10.0.0.1");
  });

  test("X-Real-IP when it is the only header; an invalid one leaves the peer", () => {
    expect(resolveClientAddress("127.0.0.1", h({ "x-real-ip": "198.51.100.5" }), proxy)).toBe("198.51.100.5");
    expect(resolveClientAddress("127.0.0.1", h({ "x-real-ip": "[2001:db8::5]" }), proxy)).toBe("2001:db8::5");
    expect(resolveClientAddress("127.0.0.1", h({ "x-real-ip": "nope" }), proxy)).toBe("127.0.0.1");
    expect(resolveClientAddress("127.0.0.1", h({}), proxy)).toBe("127.0.0.1");
  });
});
