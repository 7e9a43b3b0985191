// randomHex: lower-case hex of the asked length, from CSPRNG bytes that are never handed out twice.
import { describe, expect, test } from "bun:test";
import { randomHex } from "../../src/util/random";

describe("randomHex", () => {
  test("lengths, odd ones and ones larger than the pool included, are exact and lower-case hex", () => {
    for (const n of [1, 7, 8, 24, 32, 4095, 9000]) expect(randomHex(n)).toMatch(new RegExp(`^[0-9a-f]{${n}}$`));
  });

  test("ids drawn across several refills of the pool never repeat and use every digit about equally", () => {
    const ids = Array.from({ length: 2000 }, () => randomHex(24));
    expect(new Set(ids).size).toBe(ids.length);
    const counts = new Map<string, number>();
    for (const ch of ids.join("")) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(16);
    // 48,000 digits: 3,000 expected each; a biased table or a reused buffer would be far off.
    for (const c of counts.values()) expect(Math.abs(c - 3000)).toBeLessThan(400);
  });
});
