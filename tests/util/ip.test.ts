// src/util/ip.ts stands in for node:net's isIP on the start path (issue 35): it must answer as node:net does,
// for what proxies and operators write and for what an attacker might put in a forwarding header.
import { expect, test } from "bun:test";
import { isIP as nodeIsIP } from "node:net";
import { isIP } from "../../src/util/ip";

const SAMPLES = [
  // IPv4, good and bad
  "0.0.0.0", "1.2.3.4", "127.0.0.1", "255.255.255.255", "10.0.0.1", "192.168.001.1", "01.2.3.4", "256.1.1.1",
  "1.2.3", "1.2.3.4.5", "1.2.3.4 ", " 1.2.3.4", "1.2.3.-4", "1..2.3", "1.2.3.4:80", "１.2.3.4", "0x7f.0.0.1", "",
  // IPv6, good and bad
  "::", "::1", "1::", "2001:db8::1", "2001:DB8::1", "2001:0db8:0000:0000:0000:0000:0000:0001", "fe80::1%eth0",
  "fe80::1%", "::ffff:1.2.3.4", "::ffff:01.2.3.4", "::ffff:256.2.3.4", "64:ff9b::192.0.2.33", "1:2:3:4:5:6:7:8",
  "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7::", "::2:3:4:5:6:7:8", "1::4:5:6:7:8", "1:::2", ":::", "1:2:3:4:5:6:1.2.3.4",
  "1:2:3:4:5:6:7:1.2.3.4", "[::1]", "[::1]:443", "12345::1", "g::1", "1:2:3:4:5:6:7", "::ffff:1.2.3", "2001:db8::1%25x",
  "unknown", "_hidden", "localhost", "1.2.3.4\n", "::1\n",
];

test("isIP answers as node:net's isIP", () => {
  for (const s of SAMPLES) expect([s, isIP(s)]).toEqual([s, nodeIsIP(s) as 0 | 4 | 6]);
});

test("isIP answers as node:net's isIP for random addresses and near-misses", () => {
  let seed = 7;
  const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const parts = ["0", "1", "9", "10", "99", "100", "199", "249", "255", "256", "300", "00", "012", "ff", "FFFF", "abcd", "12345", "g", ""];
  for (let i = 0; i < 3000; i++) {
    const v4 = Array.from({ length: 3 + rnd(3) }, () => parts[rnd(11)]!).join(".");
    const v6 = Array.from({ length: 2 + rnd(8) }, () => parts[rnd(parts.length)]!).join(":");
    for (const s of [v4, v6, `::ffff:${v4}`, `${v6}::`, v6.replace(":", "::")]) expect([s, isIP(s)]).toEqual([s, nodeIsIP(s) as 0 | 4 | 6]);
  }
});
