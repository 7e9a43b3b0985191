import { describe, expect, test } from "bun:test";
import { heapStats } from "bun:jsc";
import { RopeBound } from "../../src/util/rope-bound";

describe("RopeBound", () => {
  test("a growing string is flattened at most once per 128 appends, and the copying stays linear in its length", () => {
    // What flattening copies: the string's length at each flattening.
    const bound = new RopeBound();
    let s = "";
    let copied = 0;
    let flattenings = 0;
    let sinceLast = 0;
    for (let i = 0; i < 20_000; i++) {
      const piece = ` w${i}`;
      s += piece;
      sinceLast++;
      if (bound.grew(s, piece.length)) {
        expect(sinceLast).toBeGreaterThanOrEqual(128);
        flattenings++;
        copied += s.length;
        sinceLast = 0;
      }
    }
    expect(flattenings).toBeGreaterThan(5);
    expect(copied).toBeLessThanOrEqual(9 * s.length);
  });

  test("strings grown through it hold their text, not a node per append (200 strings × 3,000 appends)", () => {
    const grow = (withBound: boolean): number => {
      Bun.gc(true);
      const before = heapStats().heapSize;
      const holders = Array.from({ length: 200 }, () => ({ text: "", bound: new RopeBound() }));
      for (let t = 0; t < 3000; t++)
        for (const h of holders) {
          const piece = ` word${t}`;
          h.text += piece;
          if (withBound) h.bound.grew(h.text, piece.length);
        }
      Bun.gc(true);
      const grown = heapStats().heapSize - before;
      expect(holders[0]!.text.length).toBe(holders[199]!.text.length);
      return grown;
    };
    const ropes = grow(false);
    const bounded = grow(true);
    // ≈ 26 MB as ropes (one ≈ 32-byte node per append) against ≈ 5 MB of text: well apart on either side.
    expect(bounded * 2).toBeLessThan(ropes);
  });
});
